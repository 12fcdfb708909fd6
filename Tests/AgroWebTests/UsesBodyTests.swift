import AgroDomain
import Foundation
import Mustache
import XCTest

@testable import AgroWeb

/// The uses page's body written directly (`UsesBody`) against `uses.mustache` rendered by
/// Mustache with the same values, as the page was before: the same bytes with and without a
/// comparison, pagination, groups, a selected culture and pest (or one not among the choices),
/// and values that need escaping.
final class UsesBodyTests: XCTestCase {
    func testTheBodyWritesWhatTheTemplateWrites() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let templates = try HTMLEscaping.library(directory: root.appendingPathComponent("Assets/web/templates"))
        let strings = [
            "compare": "Compare <uses>", "culture": "Culture", "anyCulture": "any \"culture\"", "pest": "Pest",
            "anyPest": "any pest", "group": "Group", "all": "all & every", "stage": "Stage", "sort": "Sort",
            "show": "Show", "noResults": "Nothing 'here'", "previous": "Previous", "next": "Next",
            "question": "Crop & <pest>", "otherPests": "Other \"pests\"",
        ]
        let cultureList: [(id: EntityID, name: String)] = [
            ("c-1", "Apple"), ("c&2", "Beans <dry>"), ("c-3", "Қызанақ \"x\""), ("c-4", "Wheat"),
        ]
        let pestList: [(id: EntityID, name: String)] = [("p-1", "Aphid"), ("p'2", "Rust & mildew")]
        let cultureChoices = RenderedChoices(Choices(cultureList), template: UsesBody.optionTemplate, strings: strings)
        let pestChoices = RenderedChoices(Choices(pestList), template: UsesBody.optionTemplate, strings: strings)
        let otherPestList: [(id: EntityID, name: String)] = [("p-3", "Weeds <all>"), ("p-4", "Бидай жапырағының септориозы")]
        let otherPestChoices = RenderedChoices(Choices(otherPestList), template: UsesBody.optionTemplate, strings: strings)
        func listed(_ list: [(id: EntityID, name: String)], _ selected: EntityID?) -> [[String: Any]] {
            list.map { ["id": $0.id, "name": $0.name, "selected": $0.id == selected] }
        }
        let sorts: [[(code: String, name: String, selected: Bool)]] = [
            [("name", "Name", true), ("dose", "Dose <l/ha>", false), ("phi", "PHI", false)],
            [("name", "", false), ("dose", "Dose", false), ("phi", "PHI & co", true)],
        ]
        let pages: [Pages.PageLinks?] = [
            nil, Pages.PageLinks(info: "Page 1 of 1, 3 & more", previous: nil, next: nil),
            Pages.PageLinks(info: "Page 2 of 3", previous: "/uses?pest=a%26b&page=1", next: "/uses?x=\"<'>&page=3"),
            Pages.PageLinks(info: "", previous: nil, next: "/uses?page=2"),
        ]
        var compared = 0
        for (culture, pest) in [(nil, nil), ("c&2", "p'2"), ("c-4", "unknown"), ("c-1", nil), ("c-4", "p-4")]
            as [(EntityID?, EntityID?)]
        {
            for heading in [nil, "", "Uses against <Rust> & \"mildew\" on Қызанақ"] as [String?] {
                for groups in [[], [("FRAC 3", false), ("FRAC <11>", true)]] as [[(code: String, selected: Bool)]] {
                    for (stage, sort, links, rows, empty) in [
                        ("", sorts[0], pages[0], "", false), ("12", sorts[1], pages[1], "<li>a row</li>\n", false),
                        ("<x>", sorts[0], pages[2], "<li>1</li>\n<li>2</li>\n", false), ("", sorts[1], pages[3], "", true),
                    ] {
                        var body = UsesBody(
                            cultures: .init(choices: cultureChoices, selected: culture),
                            pests: .init(choices: pestChoices, selected: pest), stage: stage, sorts: sort)
                        body.heading = heading
                        body.groups = groups
                        body.rows = rows
                        body.empty = empty
                        body.pages = links
                        // A culture asked: its pests first, then the others; a culture with members says so.
                        body.asked = culture != nil || pest != nil
                        if culture != nil {
                            body.pestsOn = "On \"\(culture ?? "")\" & <co>"
                            body.otherPests = otherPestChoices
                        }
                        body.members = culture == "c-4" ? "Wheat includes <Winter> & \"Spring\" wheat." : nil
                        var values: [String: Any] = [
                            "cultures": listed(cultureList, culture), "pests": listed(pestList, pest),
                            "sorts": sort.map { ["code": $0.code, "name": $0.name, "selected": $0.selected] },
                            "groups": groups.map { ["code": $0.code, "selected": $0.selected] }, "stage": stage,
                            "rows": RawHTML(text: rows), "empty": empty, "asked": body.asked,
                        ]
                        if let pestsOn = body.pestsOn {
                            values["pestsOn"] = pestsOn
                            values["otherPests"] = listed(otherPestList, pest)
                        }
                        if let members = body.members { values["members"] = members }
                        if let heading { values["heading"] = heading }
                        if let links {
                            var link: [String: Any] = ["info": links.info]
                            if let previous = links.previous { link["previous"] = previous }
                            if let next = links.next { link["next"] = next }
                            values["pages"] = link
                        }
                        var page = (Pages.pruned(values) as? [String: Any]) ?? [:]
                        page["t"] = strings
                        page["lang"] = "en"
                        let whole = try XCTUnwrap(templates.render(page, withTemplate: "uses"))
                        XCTAssertEqual(body.html(strings), whole, "\(culture ?? "-") \(pest ?? "-") \(heading ?? "-") \(stage)")
                        compared += 1
                    }
                }
            }
        }
        XCTAssertEqual(compared, 120)
    }

    func testTheSelectedChoiceIsNamedAndMarkedOnce() {
        let choices = RenderedChoices(
            Choices([("a", "First"), ("b", "Second"), ("a", "Again")]), template: UsesBody.optionTemplate, strings: [:])
        XCTAssertEqual(choices.name(of: "a"), "First")
        XCTAssertEqual(choices.name(of: "b"), "Second")
        XCTAssertNil(choices.name(of: "c"))
        var out = HTMLWriter(capacity: 0)
        choices.write(selecting: "a", into: &out)
        XCTAssertEqual(out.html, choices.html(selecting: "a"))
        XCTAssertEqual(out.html.components(separatedBy: " selected").count, 2, out.html)
        var none = HTMLWriter(capacity: 0)
        choices.write(selecting: "c", into: &none)
        XCTAssertEqual(none.html, choices.html)
        XCTAssertFalse(none.html.contains("selected"))
    }
}
