/** A choice among the user's connected Pinterest profiles, by username (scheduling, RSS feeds, catalogs). */
export function ProfileSelect({
  id,
  profiles,
  value,
  onChange,
  noneLabel,
}: {
  id: string;
  profiles: readonly { username: string }[];
  value: string;
  onChange(username: string): void;
  /** Offers "no profile" (value "") under this label. */
  noneLabel?: string;
}) {
  return (
    <select id={id} className="field__input field__select" value={value} onChange={(event) => onChange(event.target.value)}>
      {noneLabel !== undefined ? <option value="">{noneLabel}</option> : null}
      {profiles.map((profile) => (
        <option key={profile.username} value={profile.username}>
          {profile.username}
        </option>
      ))}
    </select>
  );
}

/** The labelled field around a ProfileSelect: "Pinterest profile" and the choice. */
export function ProfileField(props: Parameters<typeof ProfileSelect>[0]) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={props.id}>
        Pinterest profile
      </label>
      <ProfileSelect {...props} />
    </div>
  );
}
