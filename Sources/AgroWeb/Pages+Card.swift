import AgroDomain
import AgroPresentation
import Foundation

extension Pages {
    /// A product card's uses for the template, grouped by their cultures (a group per distinct
    /// set, by name), each group with an anchor for the jump list at the top of the uses. What
    /// every use of a group repeats (the same pests, the same facts, the same conditions, the
    /// same note) is shown once at the group's head and left out of its uses: a register's
    /// product with 85 uses otherwise repeats a paragraph of conditions under every one of them.
    static func cardGroups(_ uses: [Use], _ page: PageContext) -> (groups: [[String: Any]], shared: [String: Any]) {
        var groups: [(key: String, cultures: [[String: String]], entries: [[String: Any]])] = []
        for use in uses {
            let key = use.cultures.map(\.name).joined(separator: ", ")
            var entry = useEntry(use, page)
            // The uses page for each of its pests on each of its cultures: what else is registered
            // there. Kept for offline use only when asked (offline.js offers them with their size).
            let compare = use.cultures.flatMap { culture in
                use.pests.map {
                    ["name": $0.pest.name, "href": "/uses?culture=\(percent(culture.id))&pest=\(percent($0.pest.id))"]
                }
            }
            entry["compare"] = compare
            entry["hasCompare"] = !compare.isEmpty
            if let index = groups.firstIndex(where: { $0.key == key }) {
                groups[index].entries.append(entry)
            } else {
                groups.append((key, use.cultures.map { ["name": $0.name, "href": href(.culture, $0.id)] }, [entry]))
            }
        }
        groups.sort { $0.key < $1.key }
        // What every use of the card has alike, once above them all; then the pests most uses
        // name (more than half), once, each other use naming its own.
        var all = groups.flatMap(\.entries)
        var shared = all.count > 1 ? sharedParts(&all) : [:]
        if shared["hasSharedPests"] == nil, all.count > 2 {
            let lists = all.map { ($0["pests"] as? [[String: String]]) ?? [] }.filter { !$0.isEmpty }
            var counts: [[[String: String]]: Int] = [:]
            for list in lists { counts[list, default: 0] += 1 }
            if let (usual, count) = counts.max(by: { $0.value < $1.value }), count * 2 > all.count {
                shared["usualPests"] = usual
                shared["hasUsualPests"] = true
                shared["hasShared"] = true
                for index in all.indices where (all[index]["pests"] as? [[String: String]]) == usual {
                    all[index]["pests"] = [[String: String]]()
                }
            }
        }
        var taken = 0
        for index in groups.indices {
            let count = groups[index].entries.count
            groups[index].entries = Array(all[taken..<(taken + count)])
            taken += count
        }
        let made = groups.enumerated().map { number, group -> [String: Any] in
            var entries = group.entries
            var values: [String: Any] = [
                "anchor": "crops-\(number + 1)", "cultures": group.cultures, "count": entries.count,
                "jumpName": group.key.isEmpty ? "—" : group.key,
            ]
            if entries.count > 1 {
                values.merge(sharedParts(&entries)) { _, new in new }
            }
            values["uses"] = entries.map { entry -> [String: Any] in
                var entry = entry
                entry["hasPests"] = !((entry["pests"] as? [[String: String]]) ?? []).isEmpty
                return entry
            }
            return values
        }
        return (made, shared)
    }

    /// Takes out of `entries` what all of them carry alike and returns it as the group's:
    /// the pests when every use names the same ones, the facts (label and value) every use has,
    /// the obligations every use has (in the first use's order), and the note when all are equal.
    /// Named apart from a use's own (`sharedNotes`, not `notes`): Mustache would otherwise find
    /// the group's value in a use that has none and repeat it there.
    private static func sharedParts(_ entries: inout [[String: Any]]) -> [String: Any] {
        var shared: [String: Any] = [:]
        let pests = entries.map { ($0["pests"] as? [[String: String]]) ?? [] }
        if let first = pests.first, !first.isEmpty, pests.allSatisfy({ $0 == first }) {
            shared["sharedPests"] = first
            shared["hasSharedPests"] = true
            for index in entries.indices { entries[index]["pests"] = [[String: String]]() }
        }
        func fact(_ item: [String: Any]) -> String { "\(item["label"] ?? "")\u{0}\(item["value"] ?? "")" }
        let facts = entries.map { (($0["facts"] as? [[String: Any]]) ?? []) }
        let common = facts.dropFirst().reduce(Set(facts.first?.map(fact) ?? [])) { $0.intersection($1.map(fact)) }
        if !common.isEmpty {
            shared["hasSharedFacts"] = true
            shared["sharedFacts"] = (facts.first ?? []).filter { common.contains(fact($0)) }
            for index in entries.indices { entries[index]["facts"] = facts[index].filter { !common.contains(fact($0)) } }
        }
        let obligations = entries.map { ($0["obligations"] as? [String]) ?? [] }
        let always = obligations.dropFirst().reduce(Set(obligations.first ?? [])) { $0.intersection($1) }
        if !always.isEmpty {
            shared["sharedObligations"] = (obligations.first ?? []).filter { always.contains($0) }
            for index in entries.indices { entries[index]["obligations"] = obligations[index].filter { !always.contains($0) } }
        }
        let notes = entries.map { ($0["notes"] as? String) ?? "" }
        if let first = notes.first, !first.isEmpty, notes.allSatisfy({ $0 == first }) {
            shared["sharedNotes"] = first
            for index in entries.indices { entries[index]["notes"] = "" }
        }
        shared["hasShared"] = !shared.isEmpty
        return shared
    }
}
