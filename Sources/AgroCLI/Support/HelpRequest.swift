import AgroPresentation
import ArgumentParser
import Foundation

/// A request for a command's help (`agro help products`, `agro products --help`, `agro db`
/// without its subcommand), answered by a `HelpPage` in the interface language: the parser's
/// own help is English only.
///
/// What a command takes is read from the parser's description of the command tree
/// (`_dumpHelp()`, the JSON of `--experimental-dump-help`), so the page lists exactly the
/// options the parser accepts.
package enum HelpRequest {
    /// The command path (`["agro", "plan", "check"]`) whose help `error` asks for; nil when it
    /// asks for none.
    package static func path(_ error: any Error, root: any ParsableCommand.Type) -> [String]? {
        let mirror = Mirror(reflecting: error)
        if let parserError = mirror.descendant("parserError"),
            Mirror(reflecting: parserError).children.first?.label == "helpRequested"
        {
            let stack = mirror.descendant("commandStack") as? [any ParsableCommand.Type] ?? [root]
            return stack.map { $0._commandName }
        }
        // A command group run without its subcommand: `CleanExit.helpRequest(CommandType)`.
        guard error is CleanExit, let request = mirror.descendant("base"),
            let child = Mirror(reflecting: request).children.first, child.label == "helpRequest"
        else { return nil }
        let type = Mirror(reflecting: child.value).children.first?.value as? any ParsableCommand.Type ?? child.value
        guard let type = type as? any ParsableCommand.Type else { return [root._commandName] }
        return path(to: type, from: root)
    }

    /// The page of the command at `path` under `root`; nil when there is none.
    package static func page(_ path: [String], root: any ParsableCommand.Type) -> HelpPage? {
        guard let data = root._dumpHelp().data(using: .utf8),
            var command = try? JSONDecoder().decode(ToolInfo.self, from: data).command
        else { return nil }
        for name in path.dropFirst() {
            guard let sub = command.subcommands?.first(where: { $0.commandName == name }) else { return nil }
            command = sub
        }
        let keyPath = path.dropFirst().joined(separator: ".")
        func entry(_ argument: ArgumentInfo) -> HelpPage.Entry {
            let keys: [String]
            if argument.kind == "positional" {
                keys = ["help.argument.\(keyPath).\(argument.valueName ?? "")"]
            } else {
                let name = argument.preferredName?.name ?? ""
                keys = (keyPath.isEmpty ? [] : ["help.option.\(keyPath).\(name)"]) + ["help.option.\(name)"]
            }
            return HelpPage.Entry(label: argument.label, keys: keys, english: argument.abstract ?? "")
        }
        // An option of the command's own hides the parser's flag of the same name
        // (`catalog import srppp --version <version>` and the program's `--version`).
        var names = Set<String>()
        let shown = (command.arguments ?? []).filter { argument in
            argument.shouldDisplay && (argument.kind == "positional" || names.insert(argument.preferredName?.name ?? "").inserted)
        }
        return HelpPage(
            command: path.joined(separator: " "),
            abstract: HelpPage.Entry(label: "", keys: [HelpPage.commandKey(path)], english: command.abstract ?? ""),
            arguments: shown.filter { $0.kind == "positional" }.map(entry),
            options: shown.filter { $0.kind != "positional" }.map(entry),
            subcommands: (command.subcommands ?? []).filter { $0.shouldDisplay ?? true }.map { sub in
                HelpPage.Entry(
                    label: sub.commandName, keys: [HelpPage.commandKey(path + [sub.commandName])], english: sub.abstract ?? "")
            })
    }

    /// The names from `root` down to `type`; nil when `type` is not under `root`.
    private static func path(to type: any ParsableCommand.Type, from root: any ParsableCommand.Type) -> [String]? {
        let name = root._commandName
        if type == root { return [name] }
        for sub in root.configuration.subcommands {
            if let rest = path(to: type, from: sub) { return [name] + rest }
        }
        return nil
    }

    // The parts of the parser's description (ArgumentParserToolInfo's ToolInfoV0) a page shows.
    private struct ToolInfo: Decodable {
        var command: CommandInfo
    }

    private struct CommandInfo: Decodable {
        var commandName: String
        var abstract: String?
        var shouldDisplay: Bool?
        var subcommands: [CommandInfo]?
        var arguments: [ArgumentInfo]?
    }

    private struct ArgumentInfo: Decodable {
        var kind: String
        var names: [NameInfo]?
        var preferredName: NameInfo?
        var valueName: String?
        var abstract: String?
        var shouldDisplay: Bool
        var isRepeating: Bool?

        /// As typed: `-h, --help`, `--per-page <per-page>`, `<product>`.
        var label: String {
            let value = "<\(valueName ?? "")>" + (isRepeating == true ? " ..." : "")
            if kind == "positional" { return value }
            let names = (names ?? []).map { ($0.kind == "long" ? "--" : "-") + $0.name }.joined(separator: ", ")
            return kind == "option" ? names + " " + value : names
        }
    }

    private struct NameInfo: Decodable {
        var kind: String
        var name: String
    }
}
