import { isMainThread, parentPort, workerData } from "node:worker_threads";
import { validateFile, type FileJob, type FileJobSettings } from "./file.js";

// Entry point of a `clusterwire validate` worker thread: checks the files it
// is sent, one at a time, and posts each file's verdicts back with the job's id.
// Loaded only with new Worker(); imported anywhere else it does nothing.

interface Request {
  readonly id: number;
  readonly job: FileJob;
}

if (!isMainThread && parentPort !== null) {
  const port = parentPort;
  const settings = workerData as FileJobSettings;
  port.on("message", (request: Request) => {
    validateFile(request.job, settings).then(
      (result) => port.postMessage({ id: request.id, result }),
      (error: unknown) =>
        port.postMessage({
          id: request.id,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        }),
    );
  });
  // Its code is loaded: it can be given jobs.
  port.postMessage({ ready: true });
}
