import AgroDomain
import XCTest

@testable import AgroWeb

/// The uses page's body (`UsesBody`), the one page written without a template, against markup
/// written here by hand: the form open before a question and folded after one, the pickers with
/// their choice selected once, the pests of a culture first, every value escaped where it
/// stands, the rows as they come, the sentence on members, nothing found, the pagination.
/// (The pages through a server: `WebFieldPagesTests`, and the browser test at 360 px.)
final class UsesBodyTests: XCTestCase {
    private let t = [
        "compare": "Compare", "question": "Question", "culture": "Culture", "anyCulture": "any culture", "pest": "Pest",
        "anyPest": "any pest", "group": "Group", "all": "all", "stage": "Stage", "sort": "Sort", "show": "Show",
        "noResults": "Nothing found", "previous": "Previous", "next": "Next", "otherPests": "Other pests",
    ]

    private func choices(_ items: [(id: EntityID, name: String)]) -> RenderedChoices {
        RenderedChoices(Choices(items), template: UsesBody.optionTemplate, strings: t)
    }

    func testBeforeAQuestionTheFormIsOpenAndNothingIsSelected() {
        let body = UsesBody(
            cultures: .init(choices: choices([("c1", "Wheat")]), selected: nil),
            pests: .init(choices: choices([("p1", "Rust")]), selected: nil), stage: "",
            sorts: [("name", "Name", true), ("phi", "PHI", false)])
        XCTAssertEqual(
            body.html(t),
            """
            <h1 id="results">Compare</h1>
            <details class="ask" open><summary>Question</summary>
            <form class="filters" action="/uses#results" method="get">
            <label>Culture <select name="culture"><option value="">any culture</option><option value="c1">Wheat</option></select></label>
            <label>Pest <select name="pest"><option value="">any pest</option><option value="p1">Rust</option></select></label>
            <label>Group <select name="group"><option value="">all</option></select></label>
            <label>Stage <input name="stage" value="" inputmode="numeric" size="3" pattern="[0-9]{1,2}"></label>
            <label>Sort <select name="sort"><option value="name" selected>Name</option><option value="phi">PHI</option></select></label>
            <button type="submit">Show</button>
            </form>
            </details>
            <ol class="use-rows">
            </ol>



            """)
    }

    func testAnAnswerFoldsTheFormAndEscapesEveryValue() {
        var body = UsesBody(
            cultures: .init(choices: choices([("c-1", "Apple"), ("c&2", "Beans <dry>")]), selected: "c&2"),
            pests: .init(choices: choices([("p-1", "Aphid"), ("p'2", "Rust & mildew")]), selected: "p'2"), stage: "<x>",
            sorts: [("name", "Name", false), ("dose", "Dose <l/ha>", true)])
        body.heading = "Uses against <Rust> & \"mildew\""
        body.asked = true
        body.pestsOn = "On \"Beans\" & <co>"
        body.otherPests = choices([("p-3", "Weeds")])
        body.members = "Beans include <dry> & 'green'."
        body.groups = [("FRAC 3", false), ("FRAC <11>", true)]
        body.rows = "<li>a row</li>\n"
        body.pages = Pages.PageLinks(
            info: "Page 2 of 3", previous: "/uses?pest=a%26b&page=1", next: "/uses?x=\"<'>&page=3")
        XCTAssertEqual(
            body.html(t),
            """
            <h1 id="results">Uses against &lt;Rust&gt; &amp; &quot;mildew&quot;</h1>
            <details class="ask"><summary>Question</summary>
            <form class="filters" action="/uses#results" method="get">
            <label>Culture <select name="culture"><option value="">any culture</option><option value="c-1">Apple</option>\
            <option value="c&amp;2" selected>Beans &lt;dry&gt;</option></select></label>
            <label>Pest <select name="pest"><option value="">any pest</option>\
            <optgroup label="On &quot;Beans&quot; &amp; &lt;co&gt;"><option value="p-1">Aphid</option>\
            <option value="p&#39;2" selected>Rust &amp; mildew</option></optgroup><optgroup label="Other pests">\
            <option value="p-3">Weeds</option></optgroup></select></label>
            <label>Group <select name="group"><option value="">all</option><option value="FRAC 3">FRAC 3</option>\
            <option value="FRAC &lt;11&gt;" selected>FRAC &lt;11&gt;</option></select></label>
            <label>Stage <input name="stage" value="&lt;x&gt;" inputmode="numeric" size="3" pattern="[0-9]{1,2}"></label>
            <label>Sort <select name="sort"><option value="name">Name</option>\
            <option value="dose" selected>Dose &lt;l/ha&gt;</option></select></label>
            <button type="submit">Show</button>
            </form>
            </details>
            <p class="members">Beans include &lt;dry&gt; &amp; &#39;green&#39;.</p>
            <ol class="use-rows">
            <li>a row</li>
            </ol>

            <nav class="pages"><a rel="prev" href="/uses?pest=a%26b&amp;page=1">← Previous</a> <span>Page 2 of 3</span> \
            <a rel="next" href="/uses?x=&quot;&lt;&#39;&gt;&amp;page=3">Next →</a></nav>

            """)
    }

    func testNothingFoundSaysSoAndAFirstPageHasNoLinkBack() {
        var body = UsesBody(
            cultures: .init(choices: choices([("c1", "Wheat")]), selected: "unknown"),
            pests: .init(choices: choices([("p1", "Rust")]), selected: nil), stage: "12", sorts: [])
        body.heading = ""
        body.empty = true
        body.pages = Pages.PageLinks(info: "0 of 0", previous: nil, next: "/uses?page=2")
        let html = body.html(t)
        // An empty heading reads as the interface's; a choice not listed selects none.
        XCTAssertTrue(html.hasPrefix("<h1 id=\"results\">Compare</h1>\n<details class=\"ask\" open>"), html)
        XCTAssertFalse(html.contains("selected"), html)
        XCTAssertTrue(
            html.hasSuffix(
                "<ol class=\"use-rows\">\n</ol>\n<p class=\"empty\">Nothing found</p>\n"
                    + "<nav class=\"pages\"> <span>0 of 0</span> <a rel=\"next\" href=\"/uses?page=2\">Next →</a></nav>\n"),
            html)
    }

    /// A choice listed twice is selected once, where it stands first; writing it into the page
    /// gives what `html(selecting:)` gives, without the whole text made first.
    func testTheSelectedChoiceIsMarkedOnce() {
        let listed = choices([("a", "First"), ("b", "Second"), ("a", "Again")])
        var out = HTMLWriter(capacity: 0)
        listed.write(selecting: "a", into: &out)
        XCTAssertEqual(
            out.html,
            "<option value=\"a\" selected>First</option><option value=\"b\">Second</option><option value=\"a\">Again</option>")
        XCTAssertEqual(out.html, listed.html(selecting: "a"))
        XCTAssertEqual(listed.name(of: "a"), "First")
        XCTAssertNil(listed.name(of: "c"))
        var none = HTMLWriter(capacity: 0)
        listed.write(selecting: "c", into: &none)
        XCTAssertEqual(none.html, listed.html)
        XCTAssertFalse(none.html.contains("selected"))
    }
}
