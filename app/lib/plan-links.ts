/** The plan a signed-out visitor picked on a plan card: /pricing starts it once they are back from login or sign-up. */
export const START_PLAN_PARAM = "startPlan";

/**
 * Where a signed-out visitor's plan button leads (the /pricing cards and the home page's): log in (or sign up
 * from there), then back to /pricing to start that plan, paid with `method` ("card" unless said).
 */
export function loginToStart(planId: string, method = "card"): string {
  const back = `/pricing?${START_PLAN_PARAM}=${encodeURIComponent(planId)}${method === "card" ? "" : `&payWith=${method}`}`;
  return `/login?redirectTo=${encodeURIComponent(back)}`;
}
