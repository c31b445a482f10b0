// A link target from data the page did not write (a visitor, an agent's settings): an http,
// https, mailto or tel URL, made absolute; anything else (javascript:, data:, …) is no link.
export function safeUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url, location.href);
    return u.protocol === "http:" || u.protocol === "https:" || u.protocol === "mailto:" || u.protocol === "tel:" ? u.href : null;
  } catch {
    return null;
  }
}

// An image address from data the page did not write (a product's image): the link check above,
// narrowed to http and https (never mailto:, tel:, data: or javascript:).
export function safeImageUrl(url: string | null | undefined): string | null {
  const checked = safeUrl(url);
  return checked && /^https?:/i.test(checked) ? checked : null;
}
