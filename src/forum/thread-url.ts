/**
 * Where a monitored thread lives: the forum's public site, whichever door read it (monitoring reads the data
 * API, and FORUM_BASE_URL is where personas publish, a local forum in development, where the monitored
 * thread does not exist). A post's `url` without one of the forum's own is this address.
 */
export const THREAD_ORIGIN = "https://www.reddit.com";

/** The thread's absolute address from its permalink (which starts with `/r/`). */
export const threadUrl = (permalink: string) => `${THREAD_ORIGIN}/${permalink.replace(/^\/+/, "")}`;
