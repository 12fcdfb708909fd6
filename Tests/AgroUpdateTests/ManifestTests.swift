import AgroStore
import AgroTestSupport
import Foundation
import XCTest

@testable import AgroUpdate

final class ManifestTests: XCTestCase {
    func testCanonicalBytesSortKeysDropWhitespaceAndEscapeOnlyWhatMustBe() throws {
        let value = try JSONValue.parse(Data(#"{ "b": [1, -2, true, null], "a": "é\"\\/\n", "A": {"z": 0, "y": "x"} }"#.utf8))
        XCTAssertEqual(
            String(decoding: value.canonicalBytes, as: UTF8.self),
            #"{"A":{"y":"x","z":0},"a":"é\"\\/\u000a","b":[1,-2,true,null]}"#)
    }

    func testFractionsAreRefused() {
        XCTAssertThrowsError(try JSONValue.parse(Data(#"{"a": 1.5}"#.utf8)))
    }

    func testSignedManifestVerifiesAndAnyChangeBreaksIt() throws {
        let fixture = try Fixture()
        let manifest = try fixture.publish(version: 2)
        let data = try Data(contentsOf: URL(fileURLWithPath: fixture.publishDirectory + "/manifest.json"))
        let verified = try Manifest.verified(data, trustedKeys: [fixture.keys.publicKey])
        XCTAssertEqual(verified, manifest)
        XCTAssertEqual(verified.catalogVersion, 2)
        XCTAssertEqual(verified.locales, ["en", "ru"])

        // Whitespace and key order do not matter: the signature covers the canonical form.
        let pretty = try JSONSerialization.data(
            withJSONObject: JSONSerialization.jsonObject(with: data), options: [.prettyPrinted])
        XCTAssertEqual(try Manifest.verified(pretty, trustedKeys: [fixture.keys.publicKey]), manifest)

        // A changed value, or an added member, does.
        let altered = String(decoding: data, as: UTF8.self).replacingOccurrences(
            of: #""catalogVersion":2"#, with: #""catalogVersion":9"#)
        XCTAssertThrowsError(try Manifest.verified(Data(altered.utf8), trustedKeys: [fixture.keys.publicKey])) {
            XCTAssertEqual($0 as? UpdateError, .badSignature(keyID: fixture.keys.publicKey.keyID))
        }
        let added = String(decoding: data, as: UTF8.self).replacingOccurrences(of: #"{"builtAt""#, with: #"{"extra":1,"builtAt""#)
        XCTAssertThrowsError(try Manifest.verified(Data(added.utf8), trustedKeys: [fixture.keys.publicKey])) {
            XCTAssertEqual($0 as? UpdateError, .badSignature(keyID: fixture.keys.publicKey.keyID))
        }
    }

    func testKeyFilesRoundTripAndArePrivate() throws {
        let fixture = try Fixture()
        let pair = try KeyPair.read(privateKeyFile: fixture.root + "/publisher.key")
        XCTAssertEqual(pair.publicKey, try PublicSigningKey.read(file: fixture.trustFile))
        let mode = try FileManager.default.attributesOfItem(atPath: fixture.root + "/publisher.key")[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
        XCTAssertThrowsError(try fixture.keys.write(prefix: fixture.root + "/publisher"), "never overwrites a key")
        XCTAssertThrowsError(try PublicSigningKey.read(file: fixture.bundled))
    }

    func testPublishWritesContentNamedFileAndKeepsEarlierReleases() throws {
        let fixture = try Fixture()
        let first = try fixture.publish(version: 2)
        let second = try fixture.publish(version: 3)
        XCTAssertEqual(second.releases.map(\.catalogVersion), [2])
        XCTAssertEqual(second.releases.first?.file, first.file)
        for file in [first.file, second.file] {
            let path = fixture.publishDirectory + "/" + file.path
            // Checked with Debian's sha256sum, not with the digest code that wrote the manifest.
            XCTAssertEqual(try sha256sum(path), file.compressed.sha256)
            XCTAssertEqual(Int64(try Data(contentsOf: URL(fileURLWithPath: path)).count), file.compressed.size)
            XCTAssertTrue(file.path.hasPrefix("catalogs/\(file.compressed.sha256)"))
        }
        XCTAssertLessThan(second.file.compressed.size, second.file.uncompressed.size)
    }

    func testPublishingANotGreaterVersionIsRefused() throws {
        let fixture = try Fixture()
        try fixture.publish(version: 5)
        XCTAssertThrowsError(try fixture.publish(version: 5)) {
            XCTAssertEqual($0 as? UpdateError, .notGreaterThanPublished(version: 5, newest: 5))
        }
        XCTAssertThrowsError(try fixture.publish(version: 4)) {
            XCTAssertEqual($0 as? UpdateError, .notGreaterThanPublished(version: 4, newest: 5))
        }
        XCTAssertThrowsError(try fixture.publish(version: 6, identity: "other.agro")) {
            XCTAssertEqual($0 as? UpdateError, .publishIdentityMismatch(catalog: "other.agro", published: "test.agro"))
        }
    }

    func testConfigurationRefusesPlainHTTPOffLoopback() throws {
        let fixture = try Fixture()
        let environment = ["AGRO_TRUST": fixture.trustFile]
        XCTAssertThrowsError(
            try UpdateConfiguration.resolve(
                server: "http://catalog.example.org", trust: [], insecure: false, environment: environment)
        ) {
            XCTAssertEqual($0 as? UpdateError, .insecureServer(url: "http://catalog.example.org"))
        }
        XCTAssertNoThrow(
            try UpdateConfiguration.resolve(
                server: "http://catalog.example.org", trust: [], insecure: true, environment: environment))
        for loopback in ["http://127.0.0.1:8080", "http://localhost/", "http://[::1]:80"] {
            XCTAssertNoThrow(
                try UpdateConfiguration.resolve(server: loopback, trust: [], insecure: false, environment: environment))
        }
        let fromFile = try UpdateConfiguration.resolve(
            server: nil, trust: [], insecure: false, environment: [:],
            file: UpdateFileSettings(server: "https://catalog.example.org/kz", trust: [fixture.trustFile]))
        XCTAssertEqual(fromFile.server.absoluteString, "https://catalog.example.org/kz")
        XCTAssertEqual(fromFile.trustedKeys, [fixture.keys.publicKey])
        XCTAssertThrowsError(try UpdateConfiguration.resolve(server: nil, trust: [], insecure: false, environment: environment)) {
            XCTAssertEqual($0 as? UpdateError, .noServer)
        }
        XCTAssertThrowsError(
            try UpdateConfiguration.resolve(server: "https://a.example", trust: [], insecure: false, environment: [:])
        ) {
            XCTAssertEqual($0 as? UpdateError, .noTrustedKeys)
        }
    }

    func testGzipRoundTripAndCap() throws {
        let fixture = try Fixture()
        let source = fixture.root + "/text"
        try Data(TestCatalogs.syntheticText(bytes: 300_000, seed: 3).utf8).write(to: URL(fileURLWithPath: source))
        try Gzip.compress(file: source, to: source + ".gz")
        let compressed = try Data(contentsOf: URL(fileURLWithPath: source + ".gz"))
        let original = try Data(contentsOf: URL(fileURLWithPath: source))
        var output = Data()
        let inflater = try GzipInflater(limit: Int64(original.count))
        try compressed.withUnsafeBytes { try inflater.feed($0) { output.append(contentsOf: $0) } }
        XCTAssertTrue(inflater.finished)
        XCTAssertEqual(output, original)
        let capped = try GzipInflater(limit: 1000)
        XCTAssertThrowsError(try compressed.withUnsafeBytes { try capped.feed($0) { _ in } })
        XCTAssertLessThanOrEqual(capped.produced, 1000 + (1 << 18))
    }
}

/// The sha256 of a file as `sha256sum` prints it.
func sha256sum(_ path: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
    process.arguments = [path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: output, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
}
