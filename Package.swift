// swift-tools-version:6.0
import PackageDescription

/// System ICU 72 through a thin C++ bridge. `_FoundationICU` comes first so that Foundation's bundled ICU
/// binds its own symbols instead of the identically mangled ones of the system library.
let icuLinker: [LinkerSetting] = [
    .linkedLibrary("_FoundationICU", .when(platforms: [.linux])),
    .linkedLibrary("icui18n"),
    .linkedLibrary("icuuc"),
]

let package = Package(
    name: "ContactsSelection",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "ICUKit", targets: ["ICUKit"]),
        .library(name: "Collation", targets: ["Collation"]),
        .library(name: "ContactsCore", targets: ["ContactsCore"]),
        .library(name: "StringsCatalog", targets: ["StringsCatalog"]),
        .library(name: "Templating", targets: ["Templating"]),
        .library(name: "Composer", targets: ["Composer"]),
        .library(name: "ContactsSelection", targets: ["ContactsSelection"]),
        .executable(name: "contacts", targets: ["contacts"]),
    ],
    targets: [
        // Bridges
        .target(
            name: "CICU",
            path: "Sources/CICU",
            linkerSettings: icuLinker
        ),
        .target(
            name: "CPhoneNumber",
            path: "Sources/CPhoneNumber",
            linkerSettings: [.linkedLibrary("phonenumber")] + icuLinker
        ),
        .systemLibrary(
            name: "CCurl",
            path: "Sources/CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),

        // Swift side of the ICU bridge: handles with owners, thrown errors
        .target(name: "ICUKit", dependencies: ["CICU"]),

        // Libraries
        .target(name: "Collation", dependencies: ["ICUKit"]),
        .target(
            name: "ContactsCore",
            dependencies: ["ICUKit", "CPhoneNumber"],
            resources: [.copy("Resources/sample.vcf")]
        ),
        .target(
            name: "StringsCatalog",
            dependencies: ["ICUKit"],
            resources: [.copy("Localizations")]
        ),
        .target(
            name: "Templating",
            dependencies: ["ICUKit", "StringsCatalog"],
            resources: [.copy("Templates")]
        ),
        .target(name: "Composer", dependencies: ["CCurl"]),
        .target(
            name: "ContactsSelection",
            dependencies: ["ICUKit", "Collation", "ContactsCore", "StringsCatalog", "Templating", "Composer"]
        ),

        // Command-line tool
        .executableTarget(
            name: "contacts",
            dependencies: [
                "Collation", "ContactsCore", "StringsCatalog", "Templating", "Composer", "ContactsSelection",
            ]
        ),

        // Benchmarks (run with `make bench`, release build)
        .executableTarget(
            name: "Benchmarks",
            dependencies: [
                "BenchBaseline", "Collation", "ContactsCore", "Templating", "Composer", "ContactsSelection",
            ],
            path: "Benchmarks/Sources/Benchmarks"
        ),
        .target(
            name: "BenchBaseline",
            path: "Benchmarks/Sources/BenchBaseline",
            linkerSettings: icuLinker
        ),

        // Tests
        .testTarget(name: "ICUKitTests", dependencies: ["ICUKit"]),
        .testTarget(name: "CollationTests", dependencies: ["Collation"]),
        .testTarget(name: "ContactsCoreTests", dependencies: ["ContactsCore"], resources: [.copy("Fixtures")]),
        .testTarget(name: "StringsCatalogTests", dependencies: ["StringsCatalog"], resources: [.copy("Fixtures")]),
        .testTarget(name: "TemplatingTests", dependencies: ["Templating", "StringsCatalog"]),
        .testTarget(name: "ComposerTests", dependencies: ["Composer"], exclude: ["Fixtures"]),
        .testTarget(
            name: "ContactsSelectionTests",
            dependencies: [
                "ContactsSelection", "Collation", "ContactsCore", "StringsCatalog", "Templating", "Composer",
            ]
        ),
        .testTarget(name: "CLITests", dependencies: ["contacts"]),

        // Fuzzing (`make fuzz`; see Fuzz/): one entry function per target, one libFuzzer executable
        // (plain replay tool in a normal build), and the saved regressions replayed by `make test`.
        .target(
            name: "FuzzEntries",
            dependencies: ["ICUKit", "ContactsCore", "StringsCatalog", "Templating", "ContactsSelection"],
            path: "Fuzz/Sources/FuzzEntries"
        ),
        .target(name: "CFuzzerDriver", path: "Fuzz/Sources/CFuzzerDriver"),
        .executableTarget(
            name: "FuzzTargets",
            dependencies: ["FuzzEntries", "CFuzzerDriver"],
            path: "Fuzz/Sources/FuzzTargets"
        ),
        .testTarget(
            name: "FuzzRegressionTests",
            dependencies: ["FuzzEntries"],
            path: "Fuzz",
            exclude: ["Sources", "README.md", "dictionaries", "lsan.supp"],
            sources: ["Tests"],
            resources: [.copy("Regressions"), .copy("Corpus")]
        ),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
