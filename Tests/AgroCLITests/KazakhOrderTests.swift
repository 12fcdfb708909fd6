import Foundation
import XCTest

/// QA found Kazakh lists sorted with Қ, Ә, Ұ, Ү, Ө, Ғ, Ң, І, Һ after Я. Expected orders are
/// written by hand from the Kazakh alphabet (А Ә Б В Г Ғ Д Е Ё Ж З И Й К Қ Л М Н Ң О Ө П Р С Т
/// У Ұ Ү Ф Х Һ Ц Ч Ш Щ Ъ Ы І Ь Э Ю Я) and the names in Database/content, through the built
/// program and the bundled catalog (built before the fix: the order does not need a rebuild).
final class KazakhOrderTests: XCTestCase {
    let cli = CLIRunner()

    func ids(_ document: [String: Any], _ key: String = "items") -> [String] {
        (document[key] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    func testPestsSortInKazakhOrder() throws {
        // pests.json, kk names: Азия шегірткесі, Ақ алабота, Артқа қайырылған…, Бидай трипсі,
        // Біркелкі піспеу…, Кәдімгі өрмекші кене, Күздік көбелек, Құс таспа…, Қызылтөсті сүлікқоңыз,
        // Марокко шегірткесі, Орыс сораңы…, Өскін шыбыны, Пиренофороз…, Сұр шірік,
        // Сымқұрттар…, Үлкен астық бітесі, Фомопсис….
        let expected = [
            "locusta-migratoria", "chenopodium-album", "amaranthus-retroflexus", "haplothrips-tritici",
            "uneven-ripening", "tetranychus-urticae", "agrotis-segetum", "polygonum-aviculare", "oulema-melanopus",
            "dociostaurus-maroccanus", "salsola-tragus", "delia-platura", "pyrenophora-tritici-repentis",
            "botrytis-cinerea", "agriotes-spp", "sitobion-avenae", "diaporthe-helianthi",
        ]
        let listed = ids(try cli.json(["--lang", "kk", "pests", "--all"]))
        XCTAssertEqual(listed.filter(expected.contains), expected)
        // And the list a person reads: "Құс таспа" between "Күздік көбелек" and "Марокко…".
        let text = try cli.run(["--lang", "kk", "pests", "--all"])
        XCTAssertEqual(text.status, 0, text.stderr)
        let lines = text.stdout.lines
        let kus = try XCTUnwrap(lines.firstIndex { $0.contains("Құс таспа") }, text.stdout)
        let kuzdik = try XCTUnwrap(lines.firstIndex { $0.contains("Күздік көбелек") }, text.stdout)
        let marokko = try XCTUnwrap(lines.firstIndex { $0.contains("Марокко шегірткесі") }, text.stdout)
        XCTAssertTrue(kuzdik < kus && kus < marokko, text.stdout)
    }

    func testRegionsSortInEachLanguagesOrder() throws {
        // regions.json, kk names: Абай, Ақмола, Ақтөбе, Алматы, Алматы облысы, Астана, Атырау,
        // Батыс Қазақстан, Жамбыл, Жетісу, Қарағанды, Қостанай, Қызылорда, Маңғыстау, Павлодар,
        // Солтүстік Қазақстан, Түркістан, Ұлытау, Шығыс Қазақстан, Шымкент.
        let kazakh = [
            "KZ-10", "KZ-AKM", "KZ-AKT", "KZ-ALA", "KZ-ALM", "KZ-AST", "KZ-ATY", "KZ-ZAP", "KZ-ZHA", "KZ-33",
            "KZ-KAR", "KZ-KUS", "KZ-KZY", "KZ-MAN", "KZ-PAV", "KZ-SEV", "KZ-YUZ", "KZ-62", "KZ-VOS", "KZ-SHY",
        ]
        XCTAssertEqual(ids(try cli.json(["--lang", "kk", "regions", "--all"])), kazakh)
        // ru names, in the Russian alphabet as before: Абайская, Акмолинская, Актюбинская,
        // Алматинская, Алматы, Астана, Атырауская, Восточно-…, Жамбылская, Жетысуская,
        // Западно-…, Карагандинская, Костанайская, Кызылординская, Мангистауская, Павлодарская,
        // Северо-…, Туркестанская, Улытауская, Шымкент.
        let russian = [
            "KZ-10", "KZ-AKM", "KZ-AKT", "KZ-ALM", "KZ-ALA", "KZ-AST", "KZ-ATY", "KZ-VOS", "KZ-ZHA", "KZ-33",
            "KZ-ZAP", "KZ-KAR", "KZ-KUS", "KZ-KZY", "KZ-MAN", "KZ-PAV", "KZ-SEV", "KZ-YUZ", "KZ-62", "KZ-SHY",
        ]
        XCTAssertEqual(ids(try cli.json(["--lang", "ru", "regions", "--all"])), russian)
    }

    func testAUsesPestsSortInKazakhOrder() throws {
        // uses.json u-0001 (glyphosate-360-sl), its pests' kk names in the Kazakh alphabet: Ақ
        // алабота, Артқа қайырылған…, Егістік жарықшөп, Егістік қыша, Жабайы сұлы, Кәдімгі
        // жұмыршақ, Құс таспа…, Орыс сораңы…, Софья дескурайниясы, Сыпыртқы изен…, Шырмауықты….
        let expected = [
            "chenopodium-album", "amaranthus-retroflexus", "thlaspi-arvense", "sinapis-arvensis", "avena-fatua",
            "capsella-bursa-pastoris", "polygonum-aviculare", "salsola-tragus", "descurainia-sophia", "bassia-scoparia",
            "fallopia-convolvulus",
        ]
        let product = try cli.json(["--lang", "kk", "product", "glyphosate-360-sl"])
        let uses = try XCTUnwrap(product["uses"] as? [[String: Any]])
        let use = try XCTUnwrap(uses.first { $0["id"] as? String == "u-0001" })
        let pests = (use["pests"] as? [[String: Any]] ?? []).compactMap { ($0["pest"] as? [String: Any])?["id"] as? String }
        XCTAssertEqual(pests, expected)
    }
}
