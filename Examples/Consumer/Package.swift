// swift-tools-version:6.0
// A tiny package that uses ContactsSelection as a dependency by path, as an app would by URL.
import PackageDescription

let package = Package(
    name: "Consumer",
    dependencies: [.package(name: "ContactsSelection", path: "../..")],
    targets: [
        .executableTarget(
            name: "Consumer",
            dependencies: [
                .product(name: "ContactsSelection", package: "ContactsSelection"),
                .product(name: "Campaigns", package: "ContactsSelection"),
                .product(name: "Collation", package: "ContactsSelection"),
                .product(name: "ContactsCore", package: "ContactsSelection"),
                .product(name: "StringsCatalog", package: "ContactsSelection"),
                .product(name: "Templating", package: "ContactsSelection"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
