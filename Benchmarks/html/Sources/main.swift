// agro-html-bench: throughput of the HTML renderer (see Benchmarks/html/run.sh).
//   agro-html-bench [WIDTH] < page.html                 render one page to stdout
//   agro-html-bench --repeat N [--width W] FILE...      render every file N times, print timing
import AgroHTML
import Foundation

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--repeat", arguments.count >= 2, let repeats = Int(arguments[1]) {
    arguments.removeFirst(2)
    var width = 80
    if arguments.first == "--width", arguments.count >= 2 {
        width = Int(arguments[1]) ?? 80
        arguments.removeFirst(2)
    }
    let pages = arguments.map { FileManager.default.contents(atPath: $0) ?? Data() }
    let options = HTMLRenderOptions(width: width)
    var outputBytes = 0
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<repeats {
        for page in pages { outputBytes &+= HTMLRenderer.render(html: page, options: options).utf8.count }
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let inputBytes = pages.reduce(0) { $0 + $1.count } * repeats
    print("bytes=\(inputBytes) seconds=\(seconds) output=\(outputBytes)")
} else {
    let width = arguments.first.flatMap(Int.init) ?? 80
    let page = FileHandle.standardInput.readDataToEndOfFile()
    FileHandle.standardOutput.write(Data(HTMLRenderer.render(html: page, options: HTMLRenderOptions(width: width)).utf8))
}
