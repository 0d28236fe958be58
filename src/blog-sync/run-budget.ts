// A run's fetches count against the workspace's outbound fetch budget and keep its claim alive: the policy
// every request of a run or preview goes through.
import type { FetchPolicy } from "../articles";
import { FETCHES_PER_MINUTE } from "../durable/fetch-budget";
import type { WorkspaceCoordinator } from "../durable/workspace-coordinator";
import type { Env } from "../env";
import { fetchPolicy } from "./config-rules";

/** Thrown before a request once the workspace's outbound fetch budget for this minute is used up. */
export class FetchBudgetUsedUp extends Error {
  override readonly name = "FetchBudgetUsedUp";
  constructor(readonly retryAfterSeconds: number) {
    super(
      `not fetched: this workspace's outbound fetch budget (${FETCHES_PER_MINUTE} requests a minute) is used up; ` +
        `retry in ${retryAfterSeconds} s`,
    );
  }
}

/**
 * The run's fetch policy: before every request it asks the coordinator, which takes one from the
 * workspace's fetch budget and renews the run's (or preview's) lease, so a run busy fetching stays alive.
 */
export function budgetedPolicy(
  env: Env,
  coordinator: DurableObjectStub<WorkspaceCoordinator>,
  configId: number,
  token: string,
  preview: boolean,
): FetchPolicy {
  return {
    ...fetchPolicy(env),
    beforeRequest: async () => {
      const answer = await coordinator.beforeFetch({ configId, token, preview });
      if (!answer.ok) throw new FetchBudgetUsedUp(answer.retryAfterSeconds);
    },
  };
}
