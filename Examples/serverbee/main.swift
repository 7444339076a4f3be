// serverbee: the ServerBee command-line client (see README). All logic lives in the
// ServerBeeCommandLine library so it can be tested; this file only hands over the arguments.
import Foundation
import ServerBeeCommandLine

exit(await ServerBeeCommand.main(Array(CommandLine.arguments.dropFirst())))
