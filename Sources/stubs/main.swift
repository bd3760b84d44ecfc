import Foundation
import StubsTool

var output = StandardStreams()
exit(StubsCommand.run(Array(CommandLine.arguments.dropFirst()), io: &output))
