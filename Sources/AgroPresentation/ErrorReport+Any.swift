import AgroDomain
import Foundation

package extension ErrorReport {
    /// The status and words the program gives `error` (as `Program` reports a failed command),
    /// for callers that answer rather than exit: `agro web` turns the report into an HTTP answer
    /// and names its query parameters (`spelling: .query`).
    static func of(
        _ error: any Error, strings: Localizer, wordings: [any ErrorWording], spelling: ParameterSpelling = .commandLine
    ) -> ErrorReport {
        switch error {
        case let error as any CommandError:
            return ErrorReport(error.exitStatus, error.message)
        case let error as any UserFacingError:
            for wording in wordings {
                if let report = wording.report(error, strings: strings, spelling: spelling) { return report }
            }
            return ErrorReport(.failure, error.message)
        default:
            return ErrorReport(.failure, String(describing: error))
        }
    }
}
