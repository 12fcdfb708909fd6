import AgroStore
import AgroTestSupport
import Foundation
import XCTest

@testable import AgroUpdate
@testable import AgroUpdateClient

/// The whole pipeline against a static web server, as a CDN would serve it: publish with deltas,
/// nginx (Debian's nginx-light, with the configuration of docs/updates-and-security.md)
/// serving the directory on 127.0.0.1, a delta update, a 304 on the unchanged manifest, and an
/// interrupted full download resumed with Range.
final class NginxPipelineTests: XCTestCase {
    private var fixture: Fixture!
    private var nginx: Process?

    override func tearDown() {
        // SIGKILL: nginx started by Foundation's Process leaves SIGTERM and SIGQUIT pending
        // (the signal mask is inherited); with master_process off it is one process, no workers.
        if let nginx, nginx.isRunning {
            kill(nginx.processIdentifier, SIGKILL)
            nginx.waitUntilExit()
        }
        nginx = nil
        fixture = nil
    }

    /// nginx, installed through scripts/install-deps when missing; skips the test when it cannot
    /// be had, except under CI (`CI=true`), where that fails it.
    private func nginxBinary() throws -> String {
        let binary = "/usr/sbin/nginx"
        if !FileManager.default.isExecutableFile(atPath: binary) {
            let install = Process()
            install.executableURL = URL(fileURLWithPath: SharedFixtures.packageRoot.path + "/scripts/install-deps")
            install.arguments = ["nginx-light"]
            install.standardOutput = FileHandle.nullDevice
            install.standardError = FileHandle.nullDevice
            try? install.run()
            install.waitUntilExit()
        }
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            let message = "nginx-light cannot be installed (scripts/install-deps nginx-light failed)"
            if SharedFixtures.isRequired { XCTFail(message) }
            throw XCTSkip(message)
        }
        return binary
    }

    /// Starts nginx in the foreground (one process, no workers) with its own configuration,
    /// logs and temporary directories under the fixture; returns its URL once it accepts.
    private func startNginx(serving directory: String) throws -> (url: URL, accessLog: String) {
        let binary = try nginxBinary()
        let prefix = fixture.root + "/nginx"
        try FileManager.default.createDirectory(atPath: prefix + "/temp", withIntermediateDirectories: true)
        let port = try freeLoopbackPort()
        let accessLog = prefix + "/access.log"
        // The server block of docs/updates-and-security.md, with the paths and port of this test.
        let configuration = """
            daemon off;
            master_process off;
            pid \(prefix)/nginx.pid;
            error_log \(prefix)/error.log;
            events { worker_connections 64; }
            http {
                access_log \(accessLog);
                client_body_temp_path \(prefix)/temp/body;
                proxy_temp_path \(prefix)/temp/proxy;
                fastcgi_temp_path \(prefix)/temp/fastcgi;
                uwsgi_temp_path \(prefix)/temp/uwsgi;
                scgi_temp_path \(prefix)/temp/scgi;
                server {
                    listen 127.0.0.1:\(port);
                    root \(directory);
                    types { application/json json; application/gzip gz; }
                    location = /manifest.json { add_header Cache-Control "no-cache"; }
                    location /catalogs/ { add_header Cache-Control "public, max-age=31536000, immutable"; }
                    location /deltas/ { add_header Cache-Control "public, max-age=31536000, immutable"; }
                }
            }
            """
        try configuration.write(toFile: prefix + "/nginx.conf", atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["-p", prefix, "-c", prefix + "/nginx.conf", "-e", prefix + "/error.log"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        nginx = process
        let url = URL(string: "http://127.0.0.1:\(port)/")!
        for _ in 0..<100 {
            if let data = try? Data(contentsOf: url.appendingPathComponent("manifest.json")), !data.isEmpty {
                return (url, accessLog)
            }
            guard process.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let log = (try? String(contentsOfFile: prefix + "/error.log", encoding: .utf8)) ?? ""
        XCTFail("nginx did not start: \(log.suffix(500))")
        throw XCTSkip("nginx did not start")
    }

    /// (path, status) of each request nginx logged (combined format).
    private func requests(in accessLog: String) -> [(path: String, status: Int)] {
        let text = (try? String(contentsOfFile: accessLog, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "\"")
            guard parts.count > 2 else { return nil }
            let request = parts[1].split(separator: " ")
            let status = parts[2].split(separator: " ").first.flatMap { Int($0) }
            guard request.count > 1, let status else { return nil }
            return (String(request[1]), status)
        }
    }

    func testPublishServeAndUpdateThroughNginx() async throws {
        fixture = try Fixture()
        for version in 1...3 { try fixture.publish(version: version, deltas: 3) }
        let v3 = try fixture.readManifest()
        let (url, accessLog) = try startNginx(serving: fixture.publishDirectory)
        let client = try fixture.client(url)

        // The bundled v1 takes the one delta 1 -> 3, the cheapest path.
        let direct = try XCTUnwrap(v3.deltas?.first { $0.fromVersion == 1 && $0.toVersion == 3 })
        let check = try await client.check()
        XCTAssertEqual(check.deltaChain, [direct])
        let log = ProgressLog()
        _ = try await client.update { log.append($0) }
        XCTAssertEqual(log.fallbacks, [])
        try fixture.assertCurrent(version: 3, source: .installed)
        var served = requests(in: accessLog)
        XCTAssertTrue(served.contains { $0.path == "/" + direct.file.path && $0.status == 200 }, "\(served)")
        XCTAssertFalse(served.contains { $0.path.hasPrefix("/catalogs/") }, "no full download: \(served)")

        // Unchanged manifest: a 304 from nginx's ETag.
        let again = try await client.check()
        XCTAssertTrue(again.notModified)
        XCTAssertEqual(requests(in: accessLog).last?.status, 304)

        // v4 without deltas: an interrupted full download resumes with a Range request (206).
        let v4 = try fixture.publish(version: 4, deltas: 0)
        let full = try Data(contentsOf: URL(fileURLWithPath: fixture.publishDirectory + "/" + v4.file.path))
        try FileManager.default.createDirectory(atPath: fixture.store.downloadsDirectory, withIntermediateDirectories: true)
        try full.prefix(full.count / 2).write(
            to: URL(fileURLWithPath: fixture.store.partialDownloadPath(sha256: v4.file.compressed.sha256)))
        _ = try await client.update()
        try fixture.assertCurrent(version: 4, source: .installed)
        served = requests(in: accessLog)
        XCTAssertEqual(served.last?.path, "/" + v4.file.path)
        XCTAssertEqual(served.last?.status, 206)
    }
}
