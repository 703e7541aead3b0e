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
    // Built and tested on Linux (Debian 12) against the system's ICU 72, libphonenumber and libcurl. On macOS
    // the code needs 15 or later (`Synchronization.Mutex`) plus those libraries installed (e.g. from Homebrew,
    // with pkg-config able to find them); macOS is not tested.
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ICUKit", targets: ["ICUKit"]),
        .library(name: "Locales", targets: ["Locales"]),
        .library(name: "Collation", targets: ["Collation"]),
        .library(name: "ContactsCore", targets: ["ContactsCore"]),
        .library(name: "StringsCatalog", targets: ["StringsCatalog"]),
        .library(name: "MessageFormat2", targets: ["MessageFormat2"]),
        .library(name: "Templating", targets: ["Templating"]),
        .library(name: "Composer", targets: ["Composer"]),
        .library(name: "ContactsSelection", targets: ["ContactsSelection"]),
        .library(name: "Campaigns", targets: ["Campaigns"]),
        .library(name: "TerminalUI", targets: ["TerminalUI"]),
        .library(name: "CardDAV", targets: ["CardDAV"]),
        .library(name: "PickerModel", targets: ["PickerModel"]),
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
            linkerSettings: [.linkedLibrary("phonenumber"), .linkedLibrary("protobuf")] + icuLinker
        ),
        .systemLibrary(
            name: "CCurl",
            path: "Sources/CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),

        // CommonMark (Markdown bodies) through libcmark
        .systemLibrary(
            name: "CCmark",
            path: "Sources/CCmark",
            pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"])]
        ),

        // Starting a child program that dies with this process (fork, PR_SET_PDEATHSIG, exec): Support's
        // ChildProcess, for sendmail and the SMS program
        .target(name: "CProcess", path: "Sources/CProcess"),

        // The one libcurl layer above the bridge: SMTP (Composer) and HTTP (CardDAV) share it
        .target(name: "CurlTransfer", dependencies: ["CCurl"]),

        // Swift side of the ICU bridge: handles with owners, thrown errors
        .target(name: "ICUKit", dependencies: ["CICU", "Support"]),

        // Package-level utilities (`package` access): parallel work over the cores, the content hash (XXH64),
        // the one rule for files that hold people's data (created owner-only whatever the umask), the one JSON
        // reader and escaper, guarded XML input, text positions and starting child programs
        .target(name: "Support", dependencies: ["CProcess"]),

        // Finding the resources SwiftPM copies (sample address book, localizations, templates) without a trap
        .target(name: "PackageResources"),

        // The one locale policy (names of locales, fallback, the environment's locale, default region) and
        // name order, shared by every library below.
        .target(name: "Locales", dependencies: ["ICUKit"]),

        // Libraries
        .target(name: "Collation", dependencies: ["ICUKit", "Locales"]),
        .target(
            name: "ContactsCore",
            dependencies: ["ICUKit", "CPhoneNumber", "Locales", "PackageResources", "Support"],
            resources: [.copy("Resources/sample.vcf")]
        ),
        .target(
            name: "StringsCatalog",
            dependencies: ["ICUKit", "Locales", "MessageFormat2", "PackageResources", "Support"],
            resources: [.copy("Localizations")]
        ),
        // Unicode MessageFormat 2.0: syntax, data model, resolution, functions on ICU (no Templating import)
        .target(name: "MessageFormat2", dependencies: ["ICUKit", "Support"]),
        .target(
            name: "Templating",
            dependencies: [
                "ICUKit", "Locales", "StringsCatalog", "MessageFormat2", "PackageResources", "CCmark", "Support",
            ],
            resources: [.copy("Templates")]
        ),
        // CardDAV sync of an address book with a vdir: knows ContactsCore, not the list model
        .target(name: "CardDAV", dependencies: ["ContactsCore", "CurlTransfer", "Support"]),
        // ICUKit for IDNA (UTS #46): the Swift side of the ICU bridge, like every other library uses.
        .target(name: "Composer", dependencies: ["CurlTransfer", "ICUKit", "Support"]),
        // The list model (listings, search, selection); its UI literals come from the caller
        .target(
            name: "ContactsSelection",
            dependencies: ["ICUKit", "Locales", "Collation", "ContactsCore", "Support"]
        ),
        // Per-recipient messages and the select action: the selection's contacts → drafts
        .target(
            name: "Campaigns",
            dependencies: [
                "ContactsCore", "ContactsSelection", "StringsCatalog", "Templating", "Composer", "PickerModel",
                "Support",
            ]
        ),

        // Terminal helpers the CLI and terminal front ends share: text made safe for a terminal, progress on
        // stderr, SIGINT/SIGTERM during a send (what a stop means is the caller's: no Composer import);
        // the picker's screens drawn and its keys read over ncursesw through a thin bridge.
        // The picker (`contacts pick`): its view model decides what the screen shows (no terminal code).
        // (No pkgConfig: its cflags, -D_DEFAULT_SOURCE -D_XOPEN_SOURCE=600, are flags SwiftPM refuses; the shim
        // asks for the wide-character API itself and the module map links ncursesw.)
        .systemLibrary(name: "CNcurses", path: "Sources/CNcurses", providers: [.apt(["libncurses-dev"])]),
        .target(name: "TerminalUI", dependencies: ["CNcurses", "ICUKit", "PickerModel", "Support"]),
        .target(
            name: "PickerModel",
            dependencies: [
                "ICUKit", "Locales", "ContactsCore", "ContactsSelection", "StringsCatalog",
            ]
        ),

        // Command-line tool: a declarative model of its commands (parsing, help, completion), then the tool
        .target(name: "ArgumentModel"),
        .executableTarget(
            name: "contacts",
            dependencies: [
                "ArgumentModel", "ICUKit", "Locales", "Collation", "ContactsCore", "StringsCatalog", "Templating",
                "Composer", "ContactsSelection", "Campaigns", "Support", "TerminalUI", "CardDAV", "PickerModel",
                "MessageFormat2",
            ]
        ),

        // Benchmarks (run with `make bench`, release build)
        .executableTarget(
            name: "Benchmarks",
            dependencies: [
                "BenchBaseline", "Collation", "ContactsCore", "Templating", "Composer", "ContactsSelection", "Support",
                "TestSupport", "PickerModel", "MessageFormat2", "ICUKit",
            ],
            path: "Benchmarks/Sources/Benchmarks"
        ),
        .target(
            name: "BenchBaseline",
            path: "Benchmarks/Sources/BenchBaseline",
            linkerSettings: icuLinker
        ),

        // Tests. TestSupport: scratch folders removed when the test process exits.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "ICUKitTests", dependencies: ["ICUKit", "TestSupport"]),
        .testTarget(name: "LocalesTests", dependencies: ["Locales"]),
        .testTarget(name: "SupportTests", dependencies: ["Support", "TestSupport"]),
        .testTarget(name: "CollationTests", dependencies: ["Collation", "ICUKit", "Locales", "TestSupport"]),
        .testTarget(
            name: "ContactsCoreTests", dependencies: ["ContactsCore", "PackageResources", "Support", "TestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "StringsCatalogTests",
            dependencies: ["StringsCatalog", "ICUKit", "Locales", "MessageFormat2", "Support", "TestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "TemplatingTests",
            dependencies: ["Templating", "StringsCatalog", "ICUKit", "MessageFormat2", "TestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "MessageFormat2Tests", dependencies: ["MessageFormat2", "Support", "TestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(name: "ComposerTests", dependencies: ["Composer", "TestSupport"], exclude: ["Fixtures"]),
        .target(name: "SelectionFixtures", dependencies: ["ContactsCore"], path: "Tests/SelectionFixtures"),
        .testTarget(
            name: "ContactsSelectionTests",
            dependencies: [
                "ContactsSelection", "Collation", "ContactsCore", "StringsCatalog", "SelectionFixtures", "TestSupport",
            ]
        ),
        .testTarget(
            name: "CampaignsTests",
            dependencies: [
                "Campaigns", "ContactsSelection", "ContactsCore", "StringsCatalog", "Templating", "Composer",
                "SelectionFixtures", "TestSupport",
            ]
        ),
        .testTarget(name: "ArgumentModelTests", dependencies: ["ArgumentModel"]),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI", "TestSupport"]),
        .testTarget(
            name: "CardDAVTests", dependencies: ["CardDAV", "ContactsCore", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "CLITests", dependencies: ["contacts", "TestSupport", "ICUKit"]),
        // ARCHITECTURE.md's directions: reads Package.swift and the import lines (no module to build)
        .testTarget(name: "ArchitectureTests"),
        .testTarget(
            name: "PickerModelTests",
            dependencies: [
                "PickerModel", "ContactsSelection", "ContactsCore", "TestSupport", "Campaigns", "Templating",
                "Composer",
                "StringsCatalog",
            ]
        ),

        // The documentation's ```swift examples (README, DocC, `///` comments) compiled as a test target:
        // an example that drifts from the API fails the build at the line where it is written. Examples
        // are compiled, not run; warnings in them (unused results shown for their value) are not reported.
        .executableTarget(name: "DocSnippetExtractor", path: "Sources/DocSnippetExtractor"),
        .plugin(name: "DocSnippets", capability: .buildTool(), dependencies: ["DocSnippetExtractor"]),
        .testTarget(
            name: "DocExamplesTests",
            dependencies: [
                "ICUKit", "Locales", "Collation", "ContactsCore", "StringsCatalog", "Templating", "Composer",
                "ContactsSelection", "Campaigns", "TerminalUI", "PackageResources", "ArgumentModel", "CardDAV",
                "PickerModel", "MessageFormat2",
            ],
            swiftSettings: [.unsafeFlags(["-suppress-warnings"])],
            plugins: ["DocSnippets"]),

        // Fuzzing (`make fuzz`; see Fuzz/): one entry function per target, one libFuzzer executable
        // (plain replay tool in a normal build), and the saved regressions replayed by `make test`.
        .target(
            name: "FuzzEntries",
            dependencies: [
                "ICUKit", "Locales", "ContactsCore", "StringsCatalog", "Templating", "ContactsSelection", "Campaigns",
                "PackageResources",
            ],
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
