/** The initials an avatar without a photo shows ("?" when the name is empty). */
export function initialsOf(firstName: string, lastName: string): string {
  return [firstName, lastName].map((part) => part.trim().charAt(0).toUpperCase()).join("") || "?";
}

/** A user's profile photo, or their initials on the brand colour when they have none. */
export function Avatar({
  imageUrl,
  firstName,
  lastName,
  size = 96,
  alt,
}: {
  imageUrl: string | null;
  firstName: string;
  lastName: string;
  size?: number;
  /** Defaults to the person's name; "" when a name already sits next to it. */
  alt?: string;
}) {
  const name = [firstName, lastName].filter(Boolean).join(" ");
  const style = { width: size, height: size, fontSize: Math.round(size * 0.38) };
  if (imageUrl) {
    return <img className="user-avatar" src={imageUrl} alt={alt ?? name} width={size} height={size} style={style} />;
  }
  const initials = initialsOf(firstName, lastName);
  return (
    // biome-ignore lint/a11y/useAriaPropsSupportedByRole: role="img" and its aria-label are set together, or neither (then the initials are hidden).
    <span
      className="user-avatar user-avatar--initials"
      style={style}
      role={alt === "" ? undefined : "img"}
      aria-label={alt === "" ? undefined : (alt ?? name)}
      aria-hidden={alt === "" ? true : undefined}
    >
      {initials}
    </span>
  );
}
