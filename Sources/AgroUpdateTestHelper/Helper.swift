// A child process for the update tests: runs one update and, when told to, stops dead at a
// chosen step (printing "paused <step>") so that the test can kill it with SIGKILL right
// there. Not part of agro.
//
// Usage: AgroUpdateTestHelper DATA_DIR BUNDLED SERVER_URL TRUST_FILE PAUSE_STEP [PAUSE_BYTES]
// PAUSE_STEP: downloading | verifying | fileInPlace | previousLinked | currentLinked | none
import AgroStore
import AgroUpdate
import AgroUpdateClient
import Foundation

@main
enum Helper {
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func pause(_ step: String) -> Never {
        say("paused \(step)")
        while true { sleep(60) }
    }

    static func main() async {

        let arguments = CommandLine.arguments
        guard arguments.count >= 6 else {
            FileHandle.standardError.write(Data("usage: AgroUpdateTestHelper DATA BUNDLED URL TRUST STEP [BYTES]\n".utf8))
            exit(64)
        }
        let pauseStep = arguments[5]
        let pauseBytes = arguments.count > 6 ? Int64(arguments[6]) ?? 0 : 0

        let store = CatalogStore(dataDirectory: arguments[1], bundledPath: arguments[2])
        do {
            let configuration = try UpdateConfiguration(
                server: URL(string: arguments[3])!, trustedKeys: [try PublicSigningKey.read(file: arguments[4])], timeout: 10)
            let client = UpdateClient(configuration: configuration, store: store)
            let outcome = try await client.update { progress in
                switch progress {
                case let .downloading(received, _):
                    if pauseStep == "downloading", received >= pauseBytes, received > 0 { pause("downloading \(received)") }
                case .verifying:
                    if pauseStep == "verifying" { pause("verifying") }
                case let .installing(step):
                    if pauseStep == step.rawValue { pause(step.rawValue) }
                case .applyingDeltas:
                    if pauseStep == "applyingDeltas" { pause("applyingDeltas") }
                case .fetchingManifest, .fallingBack:
                    break
                }
            }
            say("done \(outcome)")
        } catch {
            say("error \(error)")
            exit(1)
        }
    }
}
