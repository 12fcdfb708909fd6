import AgroTestSupport
import Foundation
import XCTest

/// The fleet of docs/operations.md: three `agro web` sharing one PostgreSQL journal (a cluster of
/// the test's own on loopback), nginx in front of them, and two devices of one farm syncing, one
/// through nginx (each of its requests may reach another instance), one straight to an
/// instance. Both end with every change, once.
final class FleetTests: XCTestCase {
    private var cluster: PostgresCluster?
    private var nginx: Process?
    private var instances: [WebProcess] = []

    override func tearDown() {
        instances = []
        // SIGKILL: a foreground nginx started by Process keeps SIGTERM pending (NginxPipelineTests).
        if let nginx, nginx.isRunning {
            kill(nginx.processIdentifier, SIGKILL)
            nginx.waitUntilExit()
        }
        cluster?.remove()
    }

    private func startNginx(upstreams: [Int]) throws -> Int {
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("agro-fleet-\(UUID())").path
        try FileManager.default.createDirectory(atPath: prefix, withIntermediateDirectories: true)
        let port = try freeLoopbackPort()
        let configuration = """
            daemon off;
            master_process off;
            pid \(prefix)/nginx.pid;
            events { worker_connections 64; }
            http {
                access_log off;
                client_body_temp_path \(prefix)/body; proxy_temp_path \(prefix)/proxy;
                fastcgi_temp_path \(prefix)/f; uwsgi_temp_path \(prefix)/u; scgi_temp_path \(prefix)/s;
                upstream agro { \(upstreams.map { "server 127.0.0.1:\($0);" }.joined(separator: " ")) }
                server {
                    listen 127.0.0.1:\(port);
                    location / {
                        proxy_pass http://agro;
                        proxy_http_version 1.1;
                        proxy_set_header Host $host;
                        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                        proxy_set_header X-Forwarded-Proto $scheme;
                    }
                }
            }
            """
        try configuration.write(toFile: prefix + "/nginx.conf", atomically: true, encoding: .utf8)
        try SharedFixtures.tool("/usr/sbin/nginx")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        process.arguments = ["-p", prefix, "-c", prefix + "/nginx.conf", "-e", prefix + "/error.log"]
        try process.run()
        nginx = process
        let deadline = Date().addingTimeInterval(10)
        while (try? loopbackConnection(port: port)).map({ close($0) }) == nil {
            guard Date() < deadline else { throw NSError(domain: "nginx did not start", code: 0) }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return port
    }

    func testTwoDevicesThroughThreeInstancesOnPostgreSQL() throws {
        let cluster = try PostgresCluster.start()
        self.cluster = cluster
        let url = try cluster.createDatabase()
        let office = WebProcess(extraEnvironment: ["AGRO_BCRYPT_COST": "4"])
        XCTAssertEqual(try office.cli(["farms", "add", "Kamenka", "--journal-db", url]).status, 0)
        for login in ["anna", "boris"] {
            let added = try office.cli(
                ["users", "add", login, "--farm", "Kamenka", "--role", "agronomist", "--journal-db", url],
                extraEnvironment: ["AGRO_PASSWORD": "pass-\(login)-1"])
            XCTAssertEqual(added.status, 0, added.stderr)
        }
        for _ in 0..<3 {
            let instance = WebProcess()
            try instance.start(web: ["--journal-db", url])
            instances.append(instance)
        }
        let balanced = try startNginx(upstreams: instances.map(\.port))

        func sync(_ device: WebProcess, _ login: String, port: Int) throws -> String {
            let result = try device.cli(
                ["journal", "sync", "--server", "http://127.0.0.1:\(port)", "--user", login, "--format", "json"],
                extraEnvironment: ["AGRO_PASSWORD": "pass-\(login)-1"])
            XCTAssertEqual(result.status, 0, result.stderr)
            return result.stdout
        }
        func received(_ json: String) -> Int? {
            ((try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any])?["received"] as? Int
        }
        func bbch(_ device: WebProcess) throws -> [Int] {
            let list = try device.cli(["journal", "list", "--all", "--format", "json"])
            let object = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8))
            let items = (object as? [String: Any])?["items"] as? [[String: Any]] ?? object as? [[String: Any]] ?? []
            return items.compactMap { $0["bbch"] as? Int }
        }

        let first = WebProcess(), second = WebProcess()
        XCTAssertEqual(
            try first.cli(["field", "add", "Field 7", "--area", "50", "--culture", "winter wheat"]).status, 0)
        for (date, stage) in [("2026-04-28", "32"), ("2026-05-14", "37")] {
            let written = try first.cli(
                [
                    "journal", "add", "--field", "Field 7", "--date", date, "--stage", stage, "--product",
                    "tebuconazole-250-ec", "--dose", "0.75",
                ])
            XCTAssertTrue([0, 20].contains(written.status), written.stderr)
        }
        // Anna through nginx: the field and two records go; nothing comes back new.
        XCTAssertEqual(received(try sync(first, "anna", port: balanced)), 0)
        // Boris straight to the third instance: he gets all three.
        XCTAssertEqual(received(try sync(second, "boris", port: instances[2].port)), 3)
        let third = try second.cli(
            [
                "journal", "add", "--field", "Field 7", "--date", "2026-05-30", "--stage", "49", "--product",
                "tebuconazole-250-ec", "--dose", "0.75",
            ])
        XCTAssertTrue([0, 20].contains(third.status), third.stderr)
        // Boris's record sent to the first instance; Anna, through nginx, receives it.
        XCTAssertEqual(received(try sync(second, "boris", port: instances[0].port)), 0)
        XCTAssertEqual(received(try sync(first, "anna", port: balanced)), 1)
        XCTAssertEqual(try bbch(first), [32, 37, 49])
        XCTAssertEqual(try bbch(second), [32, 37, 49])
        // The farm's numbers as every instance sees them: 1 field and 3 records, 4 changes.
        for instance in instances {
            let outcome = try JSONSerialization.jsonObject(with: Data(try sync(WebProcess(), "anna", port: instance.port).utf8))
            XCTAssertEqual((outcome as? [String: Any])?["through"] as? Int, 4)
        }
    }
}
