import AgroDomain
import Foundation

/// One thing wrong with the catalog sources, with the file and the entry it is in.
public struct ContentProblem: Sendable, Hashable, CustomStringConvertible {
    /// Source file, relative to the sources directory.
    public var file: String
    /// The entry's id, or its position ("#3") when it has no usable id.
    public var entry: String?
    /// What is wrong, in English ("unknown product \"xyz\"").
    public var problem: String

    /// A problem found in `file`, in the entry `entry` when there is one.
    public init(file: String, entry: String?, problem: String) {
        self.file = file
        self.entry = entry
        self.problem = problem
    }

    /// "uses.json: entry u-0042: unknown product \"xyz\"".
    public var description: String {
        if let entry { return "\(file): entry \(entry): \(problem)" }
        return "\(file): \(problem)"
    }
}

/// The catalog sources cannot be built; every problem found is listed.
public struct ContentBuildError: UserFacingError {
    /// Every problem found, in the order the sources were read.
    public var problems: [ContentProblem]

    /// A build error listing `problems` (at least one).
    public init(problems: [ContentProblem]) {
        self.problems = problems
    }

    /// The first problem, and how many more there are, in one line.
    public var message: String {
        guard let first = problems.first else { return "catalog sources are invalid" }
        return problems.count == 1 ? first.description : "\(first) (and \(problems.count - 1) more problems)"
    }
}

extension ContentBuildError: DescribedError {
    /// The first problem, and how many more: "none", "one" (the problem's own words, from the
    /// sources) or "more".
    public var errorCase: ErrorCase {
        guard let first = problems.first else { return ErrorCase("ContentBuildError", "none") }
        if problems.count == 1 { return ErrorCase("ContentBuildError", "one", [first.description]) }
        return ErrorCase("ContentBuildError", "more", [first.description, "\(problems.count - 1)"])
    }
}
