// Cleaning the chosen content: the ordered steps that take from it what is not the article.

import { removeClosingCredit, removeNamedBoxTail, removePortraitTail } from "../furniture/author";
import { removeActionBoxes, removeLoneButtons } from "../furniture/calls-to-action";
import { edgeLines, removeDatelines, removeEdgeDates, removeHeadCounts } from "../furniture/datelines";
import { removeDoubledLabels, removeTrailingHeadings } from "../furniture/labels";
import { removeHeadNotice, removeRuledNote, removeSponsorBoxes, removeTrailingLink } from "../furniture/notices";
import { type ElementNode, textLength } from "../html-tree";
import { hasMedia, linkDensity } from "../predicates";
import { hasWord, SHARE_WORDS } from "../signals";
import { ASIDE_PROSE, isAsideList, isAsideNote } from "./asides";
import { classOrIdMatches, classWeight, type Flags } from "./class-weight";
import { cleanConditionally } from "./clean-conditionally";
import { cleanMatching } from "./clean-matching";
import { removeCommentSections } from "./comments";
import { markDataTables } from "./data-tables";
import { removeDatedStreams } from "./dated-streams";
import { isSlideCaptions, PLACED_LABELS, removeControlPanels, removePlacedLabels } from "./find-widgets";
import { isInternalLinkList, isLinksParagraph, isTeaserStream, pointersBox } from "./link-blocks";
import { cutAtPager } from "./pager";
import { heldByProse } from "./prose";
import { keepQuestionToggles } from "./question-lists";
import { removeRepeats } from "./repeats";
import { NOT_CONTENT } from "./tags";
import { removeTitleHeading } from "./title-heading";
import { trimTail } from "./trim-tail";

const RELATED = /related/i;
const AUTHOR_BOX =
  /(^|[\s_-])(author-?(bio|box|info|card|profile|details|about)|about-?(the-?)?author|(article|post|entry)-?author)([\s_-]|$)/i;

/** What every cleaning step may read: the content it cleans, the pass's flags, the title, the page's sites, widgets. */
interface Cleaning {
  content: ElementNode;
  flags: Flags;
  title: string;
  sites: Set<string>;
  controls: Map<ElementNode, number>;
  placed: Set<ElementNode>;
}

/** Cleans the chosen content in place: each step of CLEANING_STEPS in order. */
export function prepArticle(
  content: ElementNode,
  flags: Flags,
  title: string,
  sites: Set<string>,
  controls: Map<ElementNode, number>,
  placed: Set<ElementNode>,
): void {
  const cleaning: Cleaning = { content, flags, title, sites, controls, placed };
  for (const step of CLEANING_STEPS) step(cleaning);
}

/**
 * The cleaning steps, in the order they run: an earlier step's removal is what a later one judges by (teasers go
 * before conditional cleaning would take their headline links and leave the summaries; trailing headings go
 * after the boxes they titled).
 */
const CLEANING_STEPS: ((c: Cleaning) => void)[] = [
  ({ content }) => markDataTables(content),
  // A pager (links numbered 1, 2, 3, ...) ends the page's part of the article: what follows it is not the article.
  ({ content }) => cutAtPager(content),
  // A call to action (a heading, a line of pitch and a button) is not the article.
  ({ content, sites }) => removeActionBoxes(content, sites),
  ({ content, flags }) => cleanConditionally(content, ["form"], flags),
  // An aside held by a passage of prose (three paragraphs or more) is a boxed part of the article: a note; so
  // is one paragraph of a few sentences with nothing else in the box (a tip), and a list of the article's own
  // words (a recipe's ingredients, key points).
  ({ content, sites }) =>
    cleanMatching(
      content,
      (el) =>
        el.tag === "footer" ||
        el.tag === "nav" ||
        (el.tag === "aside" &&
          !heldByProse(el, textLength(el), ASIDE_PROSE, sites) &&
          !isAsideNote(el) &&
          !isAsideList(el)),
    ),
  ({ content }) => keepQuestionToggles(content),
  ({ content }) => cleanMatching(content, (el) => NOT_CONTENT.has(el.tag)),
  // Reader comments are not the article, even when a page puts them inside it: after their markers,
  // then the comment sections themselves.
  ({ content }) => removeCommentSections(content),
  ({ content }) => cleanMatching(content, (el) => hasWord(el, SHARE_WORDS) && textLength(el) < 500 && el !== content),
  // Related-post blocks that survived scoring because their class also says "article" ("related-article-links").
  ({ content }) => cleanMatching(content, (el) => classOrIdMatches(el, RELATED) && linkDensity(el) > 0.5),
  // "About the author" boxes: a bio is not the article.
  ({ content }) => cleanMatching(content, (el) => classOrIdMatches(el, AUTHOR_BOX) && textLength(el) < 1000),
  // A stream of teasers for other stories of the site (headline link, a line of summary, again and again), before
  // conditional cleaning takes their headline links and leaves the summaries looking like the article's own list.
  ({ content, sites }) => cleanMatching(content, (el) => el !== content && isTeaserStream(el, sites)),
  // Other posts of the site offered in a sentence each, with the line over them ("You may also like:", "More on
  // this school:"), before conditional cleaning: an entry of a listicle that ends in such a box is judged on its
  // own words, not on the box's links (which took half its text, and with them the whole entry).
  ({ content, sites }) => cleanMatching(content, (el) => el !== content && pointersBox(el, sites)),
  ({ content, flags, sites }) => cleanConditionally(content, ["fieldset", "table", "ul", "div"], flags, sites),
  // A lone button to another page ("Sign up", "Book a demo"): a call to action with no box around it.
  ({ content }) => removeLoneButtons(content),
  // Reader comments and news tickers: a block of many short lines carrying a time of day, after the article.
  ({ content }) => removeDatedStreams(content),
  // A short list of nothing but links to the site's own pages ("read also", a section menu).
  ({ content, sites }) => cleanMatching(content, (el) => el !== content && isInternalLinkList(el, sites)),
  removeSlidesAndWidgets,
  ({ content, title }) => removeTitleHeading(content, title),
  // A dateline ("Posted on <time>… by …", "Updated <time>…"): the short block around a time element.
  ({ content }) => removeDatelines(content),
  // Date lines at the head or tail, and counts at the head ("8 min read"), from one look at the edges.
  ({ content }) => {
    const edges = edgeLines(content);
    removeEdgeDates(edges);
    removeHeadCounts(edges.head);
  },
  // After the article's last paragraph: blocks of links to the site's own pages (menus, other stories).
  ({ content, sites }) => trimTail(content, sites),
  // The article's last paragraph when it is one link to another of the site's pages (an event, a promotion,
  // "Continue reading the main story").
  ({ content, sites }) => removeTrailingLink(content, sites),
  ({ content }) => removeClosingCredit(content),
  ({ content }) => removeRuledNote(content),
  // A notice over the article ("Editorial note: … affiliate links. Learn more").
  ({ content, sites }) => removeHeadNotice(content, sites),
  // A person's box at the end (a portrait over a name and a sentence about them), and what follows it.
  ({ content }) => removePortraitTail(content),
  ({ content }) => removeNamedBoxTail(content),
  // A heading with nothing after it (the title of a box cleaning emptied: "Related posts", "Share").
  ({ content }) => removeTrailingHeadings(content),
  // A sponsor's box: a short label over a picture linking to another site.
  ({ content, sites }) => removeSponsorBoxes(content, sites),
  // A label shown twice in a row, the second time for screen readers ("Article continues below").
  ({ content }) => removeDoubledLabels(content),
  // A block that repeats an earlier block word for word (a page that carries its article twice).
  ({ content }) => removeRepeats(content),
  // Paragraphs left empty after cleaning, and paragraphs that are nothing but links: ten or more anywhere (a
  // column of other stories written as links and breaks), or three or more to the site's own pages. One pass.
  ({ content, sites }) =>
    cleanMatching(
      content,
      (el) => el.tag === "p" && ((textLength(el) === 0 && !hasMedia(el)) || isLinksParagraph(el, sites)),
    ),
];

/** A slideshow's captions, widgets of controls, labels placed over a chart, and widget titles. */
function removeSlidesAndWidgets({ content, flags, controls, placed }: Cleaning): void {
  // A slideshow's captions, each opening with its slide's number out of the total ("1/50", "2/50", ...).
  const slideCaptions = (el: ElementNode) => el !== content && isSlideCaptions(el);
  // Headings with a negative class weight are usually widget titles.
  const widgetTitle = (el: ElementNode) => (el.tag === "h1" || el.tag === "h2") && classWeight(el, flags) < 0;
  if (!controls.size && placed.size < PLACED_LABELS) {
    // The two passes below have nothing between them (no control panel or placed labels to look for): one walk
    // asks both, as the two would decide. The widget title's test reads the element's own tag and attributes,
    // which the first pass does not change, and the captions' test reads the element's own subtree, which the
    // walk has not entered yet when it asks. A walk over the article saved (of about fifteen).
    cleanMatching(content, (el) => slideCaptions(el) || widgetTitle(el));
    return;
  }
  cleanMatching(content, slideCaptions);
  // A widget of controls (a video player's buttons, sliders and settings menus): no prose, only labels.
  removeControlPanels(content, controls);
  // A chart drawn as an image with its labels placed over it by coordinates.
  removePlacedLabels(content, placed);
  cleanMatching(content, widgetTitle);
}
