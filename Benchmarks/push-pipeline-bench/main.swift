// push-pipeline-bench: the push pipeline benchmark in its own process, so that serverbee-bench
// (decoders, crypto, codec) does not link the simulator and the relay (its memory figures
// stay those of an SDK client).
//
//   swift build -c release --product push-pipeline-bench && .build/release/push-pipeline-bench 2000
try await runPipelineBenchmark()
