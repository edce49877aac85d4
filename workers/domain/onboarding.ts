/** The 8-step onboarding checklist (spec sections 2 and 9). */
export const ONBOARDING_STEPS = [
  { name: "verifyEmail", label: "Verify your e-mail address", link: "/verify-email" },
  { name: "connectPinterest", label: "Connect your Pinterest profile", link: "/scheduling" },
  { name: "generatePins", label: "Generate pins from a blog post", link: "/generate" },
  { name: "saveDesignSettings", label: "Save your brand colours and fonts", link: "/generate" },
  { name: "createTemplate", label: "Design a template of your own", link: "/template-builder" },
  { name: "schedulePins", label: "Schedule your first pins", link: "/generate" },
  { name: "setPostingSchedule", label: "Set your posting times", link: "/scheduling" },
  { name: "inviteFriend", label: "Gift a month to a friend", link: "/profile" },
] as const;

export type OnboardingStepName = (typeof ONBOARDING_STEPS)[number]["name"];
export const ONBOARDING_STEP_NAMES = ONBOARDING_STEPS.map((step) => step.name) as OnboardingStepName[];

export interface OnboardingStep {
  name: OnboardingStepName;
  label: string;
  link: string;
  isChecked: boolean;
}

/** Steps that follow the account's real state and cannot be ticked by hand. */
const DERIVED_STEPS: readonly string[] = ["verifyEmail"];

/** The checklist as the user sees it, from the steps they have done and whether their e-mail is verified. */
export function onboardingChecklist(done: readonly string[], isEmailVerified: boolean): OnboardingStep[] {
  const doneSet = new Set(done);
  return ONBOARDING_STEPS.map((step) => ({ ...step, isChecked: step.name === "verifyEmail" ? isEmailVerified : doneSet.has(step.name) }));
}

/** Steps done after applying changes; unknown steps, and steps that follow the account's state, are ignored. */
export function applyOnboardingChanges(done: readonly string[], changes: { name: string; isChecked: boolean }[]): OnboardingStepName[] {
  const result = new Set(done.filter((name): name is OnboardingStepName => (ONBOARDING_STEP_NAMES as string[]).includes(name)));
  for (const change of changes) {
    if (!(ONBOARDING_STEP_NAMES as string[]).includes(change.name) || DERIVED_STEPS.includes(change.name)) continue;
    if (change.isChecked) result.add(change.name as OnboardingStepName);
    else result.delete(change.name as OnboardingStepName);
  }
  return ONBOARDING_STEP_NAMES.filter((name) => result.has(name));
}
