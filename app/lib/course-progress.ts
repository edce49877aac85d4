import { readStored, writeStored } from "../components/shell/browser-storage.ts";

/** Local storage: the mini-course lessons this browser marked as done (a JSON list of lesson slugs). */
export const COURSE_PROGRESS_KEY = "pgMiniCourseProgress";

/** The lessons marked done, among `known` ones (a renamed or removed lesson is forgotten). */
export function readCourseProgress(known: string[]): Set<string> {
  try {
    const stored = JSON.parse(readStored("local", COURSE_PROGRESS_KEY) ?? "[]") as unknown;
    return new Set(Array.isArray(stored) ? stored.filter((slug): slug is string => typeof slug === "string" && known.includes(slug)) : []);
  } catch {
    return new Set();
  }
}

export function writeCourseProgress(done: Set<string>) {
  writeStored("local", COURSE_PROGRESS_KEY, JSON.stringify([...done]));
}
