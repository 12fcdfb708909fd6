import AgroPresentation

/// A file or folder named on the command line that cannot be used (`agro render-html`,
/// `agro serve`): exit status 74.
enum PathError: CommandError {
    case unreadable(String)
    case notADirectory(String)

    var message: String {
        switch self {
        case let .unreadable(path): return "cannot read \(path)"
        case let .notADirectory(path): return "\(path) is not a directory"
        }
    }

    var exitStatus: ExitStatus { .ioError }
}
