export interface Notice {
  kind: "success" | "error" | "info";
  text: string;
  /** The server's explanation, shown under the message. */
  detail?: string | null;
}

/** A billing message: announced politely, errors assertively. */
export function NoticeBox({ notice }: { notice: Notice }) {
  return (
    <div className={`billing-notice billing-notice--${notice.kind}`} role={notice.kind === "error" ? "alert" : "status"}>
      <p>{notice.text}</p>
      {notice.detail && <p className="billing-notice__detail">{notice.detail}</p>}
    </div>
  );
}
