// Longer server jobs (a game's web TASKS): start one, poll until it ends.
// `control` (optional) receives `cancel()`: it asks the server to stop the
// job's work (DELETE /api/tasks/<id>); the job then ends with an error
// saying it was cancelled (or with its result, when it finished first).
export async function runTask(game, task, params, onProgress, control = null) {
  const start = await fetch(`/api/games/${game}/tasks/${task}`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(params),
  });
  const started = await start.json();
  if (!start.ok) throw new Error(started.error || "the server refused the job");
  if (control) {
    control.task = started.task;
    control.cancel = () => fetch(`/api/tasks/${started.task}`, { method: "DELETE" }).then((r) => r.json());
  }
  for (;;) {
    await new Promise((r) => setTimeout(r, 200));
    const reply = await fetch(`/api/tasks/${started.task}`).then((r) => r.json());
    if (onProgress) onProgress(reply);
    if (reply.done) {
      if (reply.error) throw new Error(reply.error);
      return reply.result;
    }
  }
}
