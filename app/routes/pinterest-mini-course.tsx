import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import { Link, useSearchParams } from "@remix-run/react";
import { useHydrated } from "../components/auth/use-hydrated.ts";
import { useEffect, useRef, useState } from "react";
import { LESSONS, type Lesson } from "../components/course/lessons.tsx";
import { readCourseProgress, writeCourseProgress } from "../lib/course-progress.ts";
import courseStyles from "../styles/course.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: courseStyles }];

const lessonOf = (slug: string | null) => LESSONS.find((lesson) => lesson.slug === slug) ?? null;

export const meta: MetaFunction = ({ location }) => {
  const lesson = lessonOf(new URLSearchParams(location.search).get("lesson"));
  return [
    { title: lesson ? `${lesson.title} | Pinterest mini-course | Pinboard Studio` : "Free Pinterest mini-course | Pinboard Studio" },
    {
      name: "description",
      content: lesson ? lesson.summary : "Six short lessons on getting steady traffic from Pinterest: boards, keywords, pin design, batching and scheduling.",
    },
  ];
};

const lessonHref = (lesson: Lesson) => `/pinterest-mini-course?lesson=${lesson.slug}`;

/**
 * /pinterest-mini-course (spec section 2): six lessons, one per page
 * (?lesson=<slug>), server-rendered; lessons marked done are kept in this
 * browser's local storage.
 */
export default function MiniCoursePage() {
  const [params] = useSearchParams();
  const lesson = lessonOf(params.get("lesson"));
  // Progress lives in this browser's storage: read once the page is hydrated (the server's page shows none), and
  // kept in state from the first tick on.
  const loaded = useHydrated();
  const [ticked, setTicked] = useState<Set<string> | null>(null);
  const done = ticked ?? (loaded ? readCourseProgress(LESSONS.map((item) => item.slug)) : new Set<string>());
  const heading = useRef<HTMLHeadingElement>(null);

  // Moving between lessons in the page: focus goes to the new lesson's heading, as a page load would start there.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    heading.current?.focus();
  }, [lesson?.slug]);

  function toggleDone(slug: string) {
    const next = new Set(done);
    if (next.has(slug)) next.delete(slug);
    else next.add(slug);
    writeCourseProgress(next);
    setTicked(next);
  }

  const index = lesson ? LESSONS.indexOf(lesson) : -1;
  const previous = index > 0 ? LESSONS[index - 1] : null;
  const next = index >= 0 && index < LESSONS.length - 1 ? LESSONS[index + 1] : null;
  const nextToDo = LESSONS.find((item) => !done.has(item.slug)) ?? null;

  return (
    <main className="page course">
      {lesson ? (
        <article className="course__lesson-body prose" aria-labelledby="lesson-title">
          <p className="eyebrow">{`Lesson ${index + 1} of ${LESSONS.length} · ${lesson.minutes} min read`}</p>
          <h1 id="lesson-title" ref={heading} tabIndex={-1}>
            {lesson.title}
          </h1>
          <p className="lead">{lesson.summary}</p>
          {lesson.body}
          <div className="course__done">
            <button
              type="button"
              className={done.has(lesson.slug) ? "button button--ghost" : "button button--primary"}
              aria-pressed={done.has(lesson.slug)}
              onClick={() => toggleDone(lesson.slug)}
              disabled={!loaded}
            >
              {done.has(lesson.slug) ? "Lesson done" : "Mark lesson as done"}
            </button>
          </div>
          <nav className="course__pager" aria-label="Lessons">
            {previous ? (
              <Link className="course__pager-link" to={lessonHref(previous)} rel="prev">
                <span className="course__pager-label">Previous lesson</span> {previous.title}
              </Link>
            ) : (
              <span />
            )}
            {next ? (
              <Link className="course__pager-link course__pager-link--next" to={lessonHref(next)} rel="next">
                <span className="course__pager-label">Next lesson</span> {next.title}
              </Link>
            ) : (
              <Link className="course__pager-link course__pager-link--next" to="/signup">
                <span className="course__pager-label">Course finished</span> Create your free account
              </Link>
            )}
          </nav>
        </article>
      ) : (
        <section className="course__lesson-body prose" aria-labelledby="course-title">
          <h1 id="course-title" ref={heading} tabIndex={-1}>
            Free Pinterest mini-course
          </h1>
          <p className="lead">
            Six short lessons, about half an hour in all, on getting steady visitors and sales from Pinterest: how it decides who sees a pin, boards and
            keywords, pins that get clicked, and a routine that keeps your schedule full without eating your week.
          </p>
          <ol className="course__overview">
            {LESSONS.map((item) => (
              <li key={item.slug}>
                <strong>{item.title}</strong> ({item.minutes} min): {item.summary}
              </li>
            ))}
          </ol>
          <p>Your progress is kept in this browser; no account needed.</p>
          <Link className="button button--primary button--large" to={lessonHref(loaded && nextToDo ? nextToDo : LESSONS[0])}>
            {loaded && done.size > 0 && nextToDo ? `Continue with lesson ${LESSONS.indexOf(nextToDo) + 1}` : "Start the course"}
          </Link>
        </section>
      )}
      <nav className="course__outline" aria-labelledby="course-outline-title">
        <p className="eyebrow">Free mini-course</p>
        <h2 id="course-outline-title" className="course__outline-title">
          <Link to="/pinterest-mini-course">Pinterest traffic in six lessons</Link>
        </h2>
        <div className="course__progress">
          <label htmlFor="course-progress">{loaded ? `${done.size} of ${LESSONS.length} lessons done` : `${LESSONS.length} lessons`}</label>
          <progress id="course-progress" max={LESSONS.length} value={done.size} />
        </div>
        <ol className="course__lessons">
          {LESSONS.map((item, position) => (
            <li key={item.slug} className={done.has(item.slug) ? "course__lesson course__lesson--done" : "course__lesson"}>
              <Link to={lessonHref(item)} aria-current={item === lesson ? "page" : undefined}>
                <span className="course__number" aria-hidden="true">
                  {done.has(item.slug) ? "✓" : position + 1}
                </span>
                <span>
                  {item.title}
                  {done.has(item.slug) ? <span className="visually-hidden"> (done)</span> : null}
                </span>
              </Link>
            </li>
          ))}
        </ol>
      </nav>
    </main>
  );
}
