import type { ReactNode } from "react";

import { usePhoneWidth } from "./phone-layout";
import { PHONE_MEDIA_QUERY } from "./phone-width";

// One of two layouts by the screen's width, right from the server's HTML. The server cannot know
// the width, and useBreakpoints only knows it after hydration: choosing with it alone painted the
// wide layout on a phone and then swapped it. So the server's HTML (and the render that hydrates
// it) holds both, a media query showing one; once the width is known, the hidden one is dropped,
// which moves nothing on screen and keeps one copy of a long list in the page.

const PHONE = "by-width-phone";
const WIDE = "by-width-wide";
const STYLE = `.${PHONE} { display: none; } ${PHONE_MEDIA_QUERY} { .${PHONE} { display: block; } .${WIDE} { display: none; } }`;

export function ByWidth({ phone, wide }: { phone: ReactNode; wide: ReactNode }) {
  // Unknown (null) while hydrating; known in one update right after, which drops one layout. Only
  // this component renders again then: `phone` and `wide` are the same elements as before.
  const onPhone = usePhoneWidth();
  // The wrappers stay put, so the layout kept is not remounted when the other one goes.
  return (
    <>
      <style>{STYLE}</style>
      <div className={PHONE}>{onPhone !== false ? phone : null}</div>
      <div className={WIDE}>{onPhone !== true ? wide : null}</div>
    </>
  );
}
