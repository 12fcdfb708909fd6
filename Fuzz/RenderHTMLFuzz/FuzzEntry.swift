// libFuzzer entry point for the HTML renderer. Built by Fuzz/run.sh together with the
// AgroHTML sources into one module (so no `import AgroHTML`). Checks the renderer's promise:
// no crash, no hang, no control character in the output except "\n" (and ESC for the
// renderer's own styles when they are on), and the same output with and without the
// script/style/comment pre-pass.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func renderHTMLFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Data(bytes: data, count: size)
    // The first byte picks the options, so widths and styles are explored too.
    let selector = size > 0 ? data[0] : 0
    let options = HTMLRenderOptions(
        width: 2 + Int(selector & 0x7F), ansiStyles: selector & 0x80 != 0,
        baseURL: URL(string: "https://fuzz.example/a/b.html"))
    let output = HTMLRenderer.render(html: input, options: options)
    // Differential check: dropping scripts, styles and comments before libxml2 must not
    // change the output (RawTextStripper's promise).
    let (stripped, plain) = input.withUnsafeBytes { bytes in
        (HTMLRenderer.render(bytes: bytes, encoding: "UTF-8", options: options, strip: true),
         HTMLRenderer.render(bytes: bytes, encoding: "UTF-8", options: options, strip: false))
    }
    if stripped != plain { fatalError("stripping changed the output") }
    var scalars = output.unicodeScalars.makeIterator()
    while let u = scalars.next() {
        let v = u.value
        if v == 0x1B && options.ansiStyles {
            // Only ESC [ digits/semicolons m may appear.
            guard scalars.next() == "[" else { fatalError("stray ESC") }
            while let c = scalars.next() {
                if c == "m" { break }
                guard ("0"..."9").contains(c) || c == ";" else { fatalError("unexpected escape sequence") }
            }
            continue
        }
        if (v < 0x20 && v != 0x0A) || (v >= 0x7F && v <= 0x9F) {
            fatalError("control character U+\(String(v, radix: 16)) in output")
        }
    }
    return 0
}
