// The bodies that create and change tracked terms (keywords, competitors), shared by the routes and the
// console's tracking page.
import { z } from "@hono/zod-openapi";
import { plainName } from "../lib/plain-text";

const keywordText = plainName(200);
export const KeywordCreate = z
  .strictObject({ keyword: keywordText, active: z.boolean().optional(), is_ambiguous: z.boolean().optional() })
  .openapi("KeywordCreate");
export const KeywordPatch = z
  .strictObject({
    keyword: keywordText.optional(),
    active: z.boolean().optional(),
    is_ambiguous: z.boolean().optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { message: "give at least one field to change" })
  .openapi("KeywordPatch", { minProperties: 1 });

const name = plainName(200);
const websiteUrl = z
  .url({ protocol: /^https?$/ })
  .max(2000)
  .nullable();
const aliases = z.array(plainName(200)).max(50);

export const CompetitorCreate = z
  .strictObject({
    name,
    website_url: websiteUrl.optional(),
    keywords: aliases.optional(),
    active: z.boolean().optional(),
    is_ambiguous: z.boolean().optional(),
  })
  .openapi("CompetitorCreate");
export const CompetitorPatch = z
  .strictObject({
    name: name.optional(),
    website_url: websiteUrl.optional(),
    keywords: aliases.optional(),
    active: z.boolean().optional(),
    is_ambiguous: z.boolean().optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { message: "give at least one field to change" })
  .openapi("CompetitorPatch", { minProperties: 1 });
