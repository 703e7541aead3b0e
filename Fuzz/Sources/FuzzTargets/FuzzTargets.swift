import Foundation
import FuzzEntries

#if FUZZING
    import CFuzzerDriver
#endif

/// One executable for every fuzz target. Built by `make fuzz` with `-sanitize=fuzzer,address` and
/// `-DFUZZING`, it hands its command line to libFuzzer:
///
///     FUZZ_TARGET=vcard .build/fuzz/release/FuzzTargets -max_total_time=60 corpus/ Fuzz/Corpus/vcard
///
/// (`FuzzTargets vcard -max_total_time=60 …` works too: a leading target name is taken out of the
/// arguments and passed on to libFuzzer's child processes through `FUZZ_TARGET`.)
///
/// In a normal build it replays inputs instead: `FuzzTargets <target> <file or folder>…` runs every file
/// through the target once, the way the regression tests do.
@main
enum FuzzMain {
    static func main() {
        var arguments = CommandLine.arguments
        var target = ProcessInfo.processInfo.environment["FUZZ_TARGET"].flatMap(FuzzTarget.init(rawValue:))
        if arguments.count > 1, let named = FuzzTarget(rawValue: arguments[1]) {
            target = named
            arguments.remove(at: 1)
            setenv("FUZZ_TARGET", named.rawValue, 1)
        }
        guard let target else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            FileHandle.standardError.write(Data("usage: FuzzTargets <target> [arguments…]; targets: \(names)\n".utf8))
            exit(2)
        }
        #if FUZZING
            selected = target
            exit(runLibFuzzer(arguments))
        #else
            exit(replay(target, paths: Array(arguments.dropFirst())))
        #endif
    }

    /// Runs each file (folders: each file inside, sorted) through the target; prints one line per file.
    static func replay(_ target: FuzzTarget, paths: [String]) -> Int32 {
        let fm = FileManager.default
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else {
                FileHandle.standardError.write(Data("\(path): no such file or folder\n".utf8))
                return 1
            }
            if isDirectory.boolValue {
                let names = (try? fm.contentsOfDirectory(atPath: path)) ?? []
                files += names.sorted().filter { !$0.hasPrefix(".") }.map { path + "/" + $0 }
            } else {
                files.append(path)
            }
        }
        for file in files {
            guard let data = fm.contents(atPath: file) else {
                FileHandle.standardError.write(Data("\(file): cannot read the file\n".utf8))
                return 1
            }
            let start = Date()
            target.run([UInt8](data))
            print(
                "\(target.rawValue): \(file): ok (\(data.count) bytes, \(Int(Date().timeIntervalSince(start) * 1000)) ms)"
            )
        }
        return 0
    }
}

#if FUZZING
    nonisolated(unsafe) var selected: FuzzTarget = .vcard

    func runLibFuzzer(_ arguments: [String]) -> Int32 {
        var cStrings: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        cStrings.append(nil)
        var argc = Int32(arguments.count)
        defer { for s in cStrings { free(s) } }
        return cStrings.withUnsafeMutableBufferPointer { buffer in
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = buffer.baseAddress
            return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
                selected.run(UnsafeRawBufferPointer(start: data, count: size))
                return 0
            }
        }
    }
#endif
