import AgroPresentation
import ArgumentParser

/// Which records `agro journal list` and `agro journal export` read: a field, a span of days.
struct JournalQueryOptions: ParsableArguments {
    @Option(help: "Only this field's records (its name).") var field: String?
    @Option(help: "Only records from this day on, YYYY-MM-DD.") var from: String?
    @Option(help: "Only records up to this day, YYYY-MM-DD.") var to: String?

    /// The query the options make.
    var query: JournalQuery { JournalQuery(field: field, from: from, to: to) }
}
