// The error shape (`ServerBeeError`, `ServerBeeErrorProtocol`) and `SecretBearing` live in
// ServerBeeCore, the package-level machinery below this module. Every public type of that
// module appears in the API of the wire types, so whoever imports ServerBeeModels sees them.
@_exported public import ServerBeeCore
