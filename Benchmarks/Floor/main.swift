// The process-start floor for the whole-process benchmark: a Swift program that starts the
// runtime and Foundation, reads its arguments and prints one line, built the same way as agro.
import Foundation

print(ProcessInfo.processInfo.arguments.count, Date().timeIntervalSince1970 > 0)
