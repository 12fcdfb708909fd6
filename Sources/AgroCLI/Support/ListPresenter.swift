import AgroDomain
import AgroPresentation
import Foundation

/// A column of a list: its header and how to read its value from an item.
package struct Column<Item>: Sendable {
    package var header: String
    package var rightAligned = false
    package var value: @Sendable (Item) -> String

    package init(header: String, rightAligned: Bool = false, value: @escaping @Sendable (Item) -> String) {
        self.header = header
        self.rightAligned = rightAligned
        self.value = value
    }
}

/// Shows a list in the chosen format, a page at a time.
///
/// On a terminal (both ends) in table format, an interactive pager: next, previous, go to
/// page, open an item by its number, back, quit. Piped, plain pages with a footer and no
/// prompt. JSON and CSV print the requested page (or everything with --all).
package struct ListPresenter<Item: Encodable & Sendable> {
    package let environment: Environment
    /// Builds the columns, whose headers are interface strings: only tables and CSV need
    /// them, and JSON output then never reads the strings files.
    private let makeColumns: () -> [Column<Item>]
    /// Reads one page of the list.
    package let load: (PageRequest) throws -> Page<Item>
    /// Prints one item in full, for the pager's "open".
    package var open: ((Item) throws -> Void)?
    /// Writes a page as `Environment.json(PageDocument(page))` does, byte for byte, without
    /// `JSONEncoder` (`Environment.json(products:)`); nil: the encoder writes it.
    package var json: ((Page<Item>) -> String)?

    package init(
        environment: Environment, columns: @escaping @autoclosure () -> [Column<Item>],
        load: @escaping (PageRequest) throws -> Page<Item>, open: ((Item) throws -> Void)? = nil,
        json: ((Page<Item>) -> String)? = nil
    ) {
        self.environment = environment
        makeColumns = columns
        self.load = load
        self.open = open
        self.json = json
    }

    package var columns: [Column<Item>] { makeColumns() }

    /// Whether `show(options)` runs the pager, the one place an item is opened: a table on a
    /// terminal, unless everything is asked for. A list printed whole needs no `open`, nor a
    /// catalog that could answer it (`Environment.openListUntilExit()`).
    package static func pages(_ environment: Environment, _ options: PageOptions) -> Bool {
        environment.format == .table && environment.isInteractive && !options.all
    }

    package func show(_ options: PageOptions) throws {
        let request =
            options.all
            ? PageRequest.all
            : PageRequest(page: options.page ?? 1, perPage: options.perPage ?? defaultPerPage)
        switch environment.format {
        case .json:
            let page = try load(request)
            if let json {
                environment.output.write(json(page))
            } else {
                try environment.printJSON(PageDocument(page))
            }
        case .csv:
            let page = try load(request)
            let columns = self.columns
            environment.output.write(CSV.line(columns.map(\.header)) + "\n")
            for item in page.items { environment.output.write(CSV.line(columns.map { $0.value(item) }) + "\n") }
        case .table:
            if Self.pages(environment, options) {
                try runPager(from: request)
            } else {
                environment.print(render(try load(request), numbered: false))
            }
        }
    }

    /// Items per page when none is asked for: what fits on the terminal under a header and
    /// above the footer and prompt.
    package var defaultPerPage: Int { max(5, environment.output.size.rows - 5) }

    package func render(_ page: Page<Item>, numbered: Bool) -> [String] {
        let s = environment.strings
        guard page.total > 0 else { return [s("list.empty")] }
        let columns = self.columns
        var headers = columns.map(\.header)
        var rows = page.items.map { item in columns.map { $0.value(item) } }
        var right = Set(columns.indices.filter { columns[$0].rightAligned })
        if numbered {
            headers.insert("#", at: 0)
            let first = (page.page - 1) * page.perPage
            rows = rows.enumerated().map { [String(first + $0.offset + 1)] + $0.element }
            right = Set(right.map { $0 + 1 } + [0])
        }
        var lines = TextTable(headers: headers, rows: rows, rightAligned: right).render(width: environment.tableWidth)
        if page.items.isEmpty { lines = [s("list.pastEnd", page.page, page.pageCount)] }
        lines.append(s.plural("list.footer", page.total, page.page, page.pageCount))
        return lines
    }

    private func runPager(from request: PageRequest) throws {
        let s = environment.strings
        var pageNumber = request.page
        let perPage = request.perPage ?? defaultPerPage
        while true {
            let page = try load(PageRequest(page: pageNumber, perPage: perPage))
            environment.print(render(page, numbered: true))
            guard page.total > 0 else { return }
            environment.output.write(s("pager.prompt") + " ")
            guard let input = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() else { return }
            switch input {
            case "", "n", "next", " ":
                if page.page < page.pageCount { pageNumber = page.page + 1 } else if input == "" { return }
            case "p", "prev", "previous", "b", "back":
                if page.page > 1 { pageNumber = page.page - 1 }
            case "q", "quit", "exit":
                return
            default:
                if input.hasPrefix("g"), let target = Int(input.dropFirst().trimmingCharacters(in: .whitespaces)) {
                    pageNumber = min(max(1, target), page.pageCount)
                } else if let number = Int(input), let open {
                    let index = number - 1 - (page.page - 1) * page.perPage
                    guard page.items.indices.contains(index) else {
                        environment.print(s("pager.noSuchItem", number))
                        continue
                    }
                    environment.print()
                    try open(page.items[index])
                    environment.output.write(s("pager.back") + " ")
                    if let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased(), answer == "q" { return }
                } else {
                    environment.print(s("pager.help"))
                }
            }
        }
    }
}
