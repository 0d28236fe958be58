// Keyword metrics (docs/monitoring.md, "Keyword metrics"): search volume, cost per click, and where the forum ranks in
// a search engine's results for the keyword. A small provider interface; DataForSEO is the one built in. Without
// credentials there is no provider and the metrics stay null.
import { z } from "zod";
import type { WorkspaceDb } from "../db/client";
import { type KeywordMetrics, keywordsByIds, saveKeywordMetrics } from "../db/monitor";
import type { Env } from "../env";
import { log } from "../lib/log";

export type { KeywordMetrics };

export interface KeywordMetricsProvider {
  readonly name: string;
  /**
   * Metrics of each keyword, by its text as given. A keyword the provider knows nothing of gets nulls; one it
   * could not measure (its task refused) is left out, so it is not stored as measured and is asked again.
   */
  measure(keywords: string[]): Promise<Map<string, KeywordMetrics>>;
}

export const DEFAULT_DATAFORSEO_BASE_URL = "https://api.dataforseo.com";
/** United States, English: the market the numbers describe (DataForSEO's location and language codes). */
const LOCATION_CODE = 2840;
const LANGUAGE_CODE = "en";
/** Organic results read per keyword when looking for the forum. */
const SERP_DEPTH = 100;
const FORUM_DOMAIN = /(^|\.)reddit\.com$/i;

// DataForSEO's envelope: a status for the request and one per task, results inside the tasks.
const Envelope = <T extends z.ZodType>(result: T) =>
  z.object({
    status_code: z.number(),
    status_message: z.string(),
    tasks: z
      .array(
        z.object({
          status_code: z.number(),
          status_message: z.string(),
          result: z.array(result).nullish(),
        }),
      )
      .nullish(),
  });

const VolumeResult = Envelope(
  z.object({
    keyword: z.string(),
    search_volume: z.number().nullish(),
    cpc: z.number().nullish(),
  }),
);

const SerpResult = Envelope(
  z.object({
    keyword: z.string(),
    items: z
      .array(
        z.object({
          type: z.string(),
          rank_group: z.number().nullish(),
          rank_absolute: z.number().nullish(),
          domain: z.string().nullish(),
          url: z.string().nullish(),
        }),
      )
      .nullish(),
  }),
);

/** DataForSEO's success code, for the request and for each task. */
const OK = 20000;
/** DataForSEO's codes 40000–40999 refuse what was asked (a task's fields); 50000 and up are its own errors. */
const isInputRefusal = (code: number) => code >= 40000 && code < 50000;

export class DataForSeoProvider implements KeywordMetricsProvider {
  readonly name = "dataforseo";

  constructor(
    private readonly login: string,
    private readonly password: string,
    private readonly baseUrl: string,
  ) {}

  private async post<T extends z.ZodType>(path: string, tasks: unknown[], schema: T): Promise<z.infer<T>> {
    const res = await fetch(`${this.baseUrl}${path}`, {
      method: "POST",
      headers: {
        authorization: `Basic ${btoa(`${this.login}:${this.password}`)}`,
        "content-type": "application/json",
      },
      body: JSON.stringify(tasks),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`DataForSEO ${path} answered ${res.status}: ${text.slice(0, 200)}`);
    const parsed = schema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`DataForSEO ${path}: unexpected answer (${parsed.error.issues[0]?.message})`);
    const body = parsed.data as { status_code: number; status_message: string };
    if (body.status_code !== OK) throw new Error(`DataForSEO ${path}: ${body.status_code} ${body.status_message}`);
    return parsed.data;
  }

  async measure(keywords: string[]): Promise<Map<string, KeywordMetrics>> {
    const out = new Map<string, KeywordMetrics>();
    const volumes = await this.volumes(keywords);
    // The organic results are one task per keyword (the live endpoint takes one task a request).
    for (const keyword of keywords) {
      const volume = volumes.get(keyword);
      if (!volume) continue;
      const serp = await this.post(
        "/v3/serp/google/organic/live/advanced",
        [{ keyword, location_code: LOCATION_CODE, language_code: LANGUAGE_CODE, depth: SERP_DEPTH }],
        SerpResult,
      );
      const task = serp.tasks?.[0];
      if (!task || task.status_code !== OK) {
        refused("serp", [keyword], task);
        continue;
      }
      const items = task.result?.[0]?.items ?? [];
      const forum = items.find((i) => i.type === "organic" && FORUM_DOMAIN.test(i.domain ?? ""));
      out.set(keyword, { ...volume, serpForumPosition: forum?.rank_group ?? null, serpForumUrl: forum?.url ?? null });
    }
    return out;
  }

  /**
   * Search volume and CPC of the keywords the search-volume task measured. Google Ads refuses a whole task for
   * one keyword it does not take (a symbol it refuses, a restricted category), so a task of several keywords
   * refused for its input is asked again one keyword at a time: the others are measured, and only the refused
   * one is left out.
   */
  private async volumes(keywords: string[]): Promise<Map<string, Pick<KeywordMetrics, "searchVolume" | "cpc">>> {
    const out = new Map<string, Pick<KeywordMetrics, "searchVolume" | "cpc">>();
    if (keywords.length === 0) return out;
    const answer = await this.post(
      "/v3/keywords_data/google_ads/search_volume/live",
      [{ keywords, location_code: LOCATION_CODE, language_code: LANGUAGE_CODE }],
      VolumeResult,
    );
    const task = answer.tasks?.[0];
    if (!task || task.status_code !== OK) {
      // Only a refusal of the task's input (DataForSEO's 40xxx) may be one keyword's; an error of theirs (50xxx)
      // would cost a request per keyword for nothing, so that batch is left for the next run.
      if (keywords.length > 1 && task && isInputRefusal(task.status_code))
        for (const keyword of keywords) for (const [k, v] of await this.volumes([keyword])) out.set(k, v);
      else refused("search volume", keywords, task);
      return out;
    }
    for (const keyword of keywords) out.set(keyword, { searchVolume: null, cpc: null });
    const byLower = new Map(keywords.map((k) => [k.toLowerCase(), k]));
    for (const r of task.result ?? []) {
      const key = byLower.get(r.keyword.toLowerCase());
      if (key === undefined) continue;
      out.set(key, {
        searchVolume: r.search_volume ?? null,
        cpc: r.cpc === null || r.cpc === undefined ? null : r.cpc.toFixed(2),
      });
    }
    return out;
  }
}

/** A task DataForSEO refused (or did not answer): logged, its keywords left unmeasured. */
function refused(what: string, keywords: string[], task: { status_code: number; status_message: string } | undefined) {
  log("warn", "keyword metrics: task refused", {
    what,
    keywords,
    status: task ? `${task.status_code} ${task.status_message}` : "no task in the answer",
  });
}

/** The configured provider, or null (no credentials: metrics stay null, nothing fails). */
export function metricsProvider(env: Env): KeywordMetricsProvider | null {
  const login = env.DATAFORSEO_LOGIN?.trim();
  const password = env.DATAFORSEO_PASSWORD;
  if (!login || !password) return null;
  const base = (env.DATAFORSEO_BASE_URL?.trim() || DEFAULT_DATAFORSEO_BASE_URL).replace(/\/+$/, "");
  return new DataForSeoProvider(login, password, base);
}

/**
 * Measures the given keywords of the workspace and stores the numbers (serp_checked_at: now); the number
 * stored. A keyword the provider could not measure keeps what it had, so the weekly run asks again.
 */
export async function refreshKeywordMetrics(
  env: Env,
  w: WorkspaceDb,
  keywordIds: number[],
  provider = metricsProvider(env),
): Promise<number> {
  if (!provider) return 0;
  const rows = await keywordsByIds(w, keywordIds);
  if (rows.length === 0) return 0;
  const measured = await provider.measure(rows.map((r) => r.keyword));
  let stored = 0;
  for (const row of rows) {
    const m = measured.get(row.keyword);
    if (m && (await saveKeywordMetrics(w, row, m))) stored++;
  }
  return stored;
}
