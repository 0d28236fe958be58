// A run's draft with its source line (the config's `source_link`, docs/blog-sync.md "The config"): the line
// is rendered by src/articles/render/source-line.ts; here it is added to what a run rendered, and the content
// hash that decides "changed" takes it in, so turning the setting on or off updates the drafts on the next run.
import { withSourceLine } from "../articles";
import type { SyncConfigRow } from "../db/blog-sync-configs";
import { sha256Hex } from "../lib/crypto";

interface RenderedDraft {
  bodyMarkdown: string;
  bodyRichtext: unknown;
  contentHash: string;
  warnings: string[];
}

/** `rendered` with the source line of `url` when the config asks for it; as it is otherwise. */
export async function withSource<T extends RenderedDraft>(
  rendered: T,
  config: Pick<SyncConfigRow, "sourceLink">,
  url: string,
): Promise<T> {
  if (!config.sourceLink) return rendered;
  const body = withSourceLine({ markdown: rendered.bodyMarkdown, richtext: rendered.bodyRichtext }, url);
  return {
    ...rendered,
    bodyMarkdown: body.markdown,
    bodyRichtext: body.richtext,
    contentHash: await sha256Hex(JSON.stringify([rendered.contentHash, "source line", url])),
    warnings: body.warning ? [...rendered.warnings, body.warning] : rendered.warnings,
  };
}
