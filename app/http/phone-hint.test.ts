import { describe, expect, it } from "vitest";

import { isPhoneRequest } from "./phone-hint";

const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const IPAD =
  "Mozilla/5.0 (iPad; CPU OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/604.1";
const DESKTOP =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

describe("whether a request comes from a phone", () => {
  it("believes Chromium's mobile client hint either way", () => {
    expect(isPhoneRequest(new Headers({ "sec-ch-ua-mobile": "?1", "user-agent": DESKTOP }))).toBe(true);
    expect(isPhoneRequest(new Headers({ "sec-ch-ua-mobile": "?0", "user-agent": IPHONE }))).toBe(false);
  });

  it("reads a phone's user agent where there is no hint (Safari), and not a tablet's or a desktop's", () => {
    expect(isPhoneRequest(new Headers({ "user-agent": IPHONE }))).toBe(true);
    expect(isPhoneRequest(new Headers({ "user-agent": IPAD }))).toBe(false);
    expect(isPhoneRequest(new Headers({ "user-agent": DESKTOP }))).toBe(false);
    expect(isPhoneRequest(new Headers())).toBe(false);
  });
});
