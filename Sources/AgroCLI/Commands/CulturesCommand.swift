import AgroDomain
import AgroStore
import ArgumentParser

struct CulturesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cultures", abstract: "List cultures as a tree of groups and members.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var pages: PageOptions

    /// One line of the tree. A culture with several parents appears under each of them.
    struct TreeRow: Encodable, Sendable {
        var id: EntityID
        var name: String
        var parentIDs: [EntityID]
        var depth: Int
        var prefix: String

        enum CodingKeys: String, CodingKey { case id, name, parentIDs, depth }
    }

    func run() throws {
        let environment = try Environment(global)
        let catalog = try environment.openCatalog()
        let nodes = try catalog.cultures(locale: environment.language)
        let rows = environment.format == .table ? Self.tree(nodes) : nodes.map {
            TreeRow(id: $0.id, name: $0.name, parentIDs: $0.parentIDs, depth: 0, prefix: "")
        }
        let s = environment.strings
        try ListPresenter(
            environment: environment,
            columns: [
                Column(header: s("column.name")) { $0.prefix + $0.name },
                Column(header: s("column.id")) { $0.id },
            ],
            load: { Page(slicing: rows, $0) },
            open: { try CultureCommand.show(id: $0.id, catalog: catalog, environment: environment) }
        ).show(pages)
    }

    /// Depth-first lines of the culture graph, roots first, children in name order.
    static func tree(_ nodes: [CultureNode]) -> [TreeRow] {
        var children: [EntityID: [CultureNode]] = [:]
        let known = Set(nodes.map(\.id))
        var roots: [CultureNode] = []
        for node in nodes {
            let parents = node.parentIDs.filter(known.contains)
            if parents.isEmpty { roots.append(node) }
            for parent in parents { children[parent, default: []].append(node) }
        }
        var rows: [TreeRow] = []
        func visit(_ node: CultureNode, depth: Int, lead: String, isLast: Bool, path: Set<EntityID>) {
            let branch = depth == 0 ? "" : lead + (isLast ? "└─ " : "├─ ")
            rows.append(TreeRow(id: node.id, name: node.name, parentIDs: node.parentIDs, depth: depth, prefix: branch))
            let next = children[node.id] ?? []
            let childLead = depth == 0 ? "" : lead + (isLast ? "   " : "│  ")
            for (index, child) in next.enumerated() where !path.contains(child.id) {
                visit(child, depth: depth + 1, lead: childLead, isLast: index == next.count - 1, path: path.union([child.id]))
            }
        }
        for root in roots { visit(root, depth: 0, lead: "", isLast: true, path: [root.id]) }
        return rows
    }
}
