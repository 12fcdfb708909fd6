/// Russian plurals written out by hand for tests (CLDR's one/few/many rule), so what a test
/// expects does not come from the program's own plural code.
public enum RussianPlural {
    /// "1 день", "3 дня", "5 дней", "21 день", "12 дней".
    public static func days(_ n: Int) -> String {
        let mod10 = n % 10, mod100 = n % 100
        if mod10 == 1 && mod100 != 11 { return "\(n) день" }
        if (2...4).contains(mod10) && !(12...14).contains(mod100) { return "\(n) дня" }
        return "\(n) дней"
    }
}
