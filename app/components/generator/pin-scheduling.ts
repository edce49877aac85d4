import type { Post } from "../../../contracts/content/post.ts";
import { renderPostBody } from "../../../workers/domain/generate.ts";
import { creepProgress, schedulePosts, type ScheduleFlags, type ScheduleTarget } from "../../lib/pinterest/bulk-schedule.ts";
import { schedulePins } from "../../lib/pinterest/scheduling-api.ts";
import { renderTemplateImage } from "../../lib/pin-images.ts";

/**
 * Bulk scheduling from the grid: render each pin on the server, send them to
 * schedulePin, and move a progress bar toward 90 percent until the server
 * confirms (then 100). Per-post flags say where each one stands; the caller
 * sums the result up (one toast for a batch spread over several boards).
 */
export async function scheduleGridPosts(
  posts: Post[],
  target: ScheduleTarget,
  options: { bypassResize: boolean; setFlags(ids: ReadonlySet<string>, flags: ScheduleFlags): void; onPercent(percent: number): void },
) {
  let percent = 0;
  let floor = 0;
  options.onPercent(0);
  const timer = setInterval(() => {
    percent = creepProgress(percent, floor);
    options.onPercent(Math.round(percent));
  }, 250);
  try {
    const result = await schedulePosts(posts, target, {
      // Rendered for scheduling: free here, paid by the schedule that uses it.
      render: async (post) => (await renderTemplateImage({ post: renderPostBody(post, { bypassResize: options.bypassResize }), purpose: "schedule" })).url,
      schedule: (pins) => schedulePins(pins),
      setFlags: options.setFlags,
      onFloor: (value) => {
        floor = value;
        percent = Math.max(percent, floor);
        options.onPercent(Math.round(percent));
      },
    });
    clearInterval(timer);
    options.onPercent(100);
    return result;
  } finally {
    clearInterval(timer);
  }
}
