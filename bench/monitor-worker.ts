// The monitoring benchmark's Worker (never deployed): the service itself (src/index.ts: every route, queue
// and Durable Object), run by `wrangler dev bench/monitor-worker.ts` with the project's wrangler.toml. Two
// things differ, both only so that the forum's time can run faster than real time honestly:
//
// - The ingester's alarm reads the local forum's clock (BENCH_FORUM_T0 at real BENCH_REAL_T0, running
//   BENCH_CLOCK_FACTOR times faster): each round runs the service's own `round` at forum time, so the walk's
//   retries (2 and 30 minutes), its budget per minute and the quota's 600-second window all count forum
//   time, and the next round comes MONITOR_INGEST_INTERVAL_S forum seconds later. Time spent working (the
//   matcher, D1) passes N times faster too, so latencies in forum seconds are if anything overstated.
// - The ingester can start only after `POST /__bench/ingester/open`, so the per-workspace searches measured
//   first (on the real clock) do not share the quota's window with the accelerated walk. After that, the
//   service's own starters (POST /actions/monitoring/run, a term change, the cron) start it as always.
import { ForumIngester as ServiceIngester } from "../src/durable/forum-ingester";
import type { Env } from "../src/env";
import { forumApiConfig } from "../src/forum/app-client";
import service from "../src/index";
import { log, messageOf } from "../src/lib/log";

export { ForumQuota, WorkspaceCoordinator } from "../src/index";

interface BenchVars {
  BENCH_FORUM_T0?: string;
  BENCH_REAL_T0?: string;
  BENCH_CLOCK_FACTOR?: string;
}

const OPEN_KEY = "bench-open";

function forumClock(env: Env) {
  const vars = env as Env & BenchVars;
  const factor = Number(vars.BENCH_CLOCK_FACTOR) || 1;
  const forum0 = Number(vars.BENCH_FORUM_T0) || 0;
  const real0 = Number(vars.BENCH_REAL_T0) || 0;
  return { factor, now: () => (forum0 ? forum0 + (Date.now() - real0) * factor : Date.now()) };
}

export class ForumIngester extends ServiceIngester {
  /** Lets the service's starters (POST /actions/monitoring/run, a term change, the cron) start it from now on. */
  async benchOpen(): Promise<void> {
    await this.ctx.storage.put(OPEN_KEY, true);
  }

  override async ensureRunning(intervalS?: number): Promise<boolean> {
    if (!(await this.ctx.storage.get<boolean>(OPEN_KEY))) return false;
    return super.ensureRunning(intervalS);
  }

  override async alarm(): Promise<void> {
    const config = forumApiConfig(this.env);
    const intervalS = Number.parseInt(this.env.MONITOR_INGEST_INTERVAL_S ?? "", 10) || 30;
    if (!config) return;
    const clock = forumClock(this.env);
    // As the service's alarm: the next round first, MONITOR_INGEST_INTERVAL_S seconds of forum time later.
    await this.ctx.storage.setAlarm(Date.now() + (intervalS * 1000) / clock.factor);
    try {
      // Real time, which the benchmark reports (a round that takes longer than its interval falls behind).
      const started = Date.now();
      const counts = await this.round(
        config,
        { now: clock.now, wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms / clock.factor)) },
        intervalS,
      );
      if (counts) log("info", "bench ingest round", { ...counts, real_ms: Date.now() - started });
    } catch (err) {
      log("error", "ingest round failed", { error: messageOf(err) });
    }
  }
}

export default {
  ...service,
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (request.method === "POST" && url.pathname === "/__bench/ingester/open") {
      const config = forumApiConfig(env);
      if (!config) return new Response("no forum client", { status: 409 });
      const stub = env.FORUM_INGESTER.get(env.FORUM_INGESTER.idFromName(config.clientId)) as unknown as {
        benchOpen(): Promise<void>;
      };
      await stub.benchOpen();
      return Response.json({ open: true });
    }
    return service.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<Env>;
