// @vitest-environment jsdom
import "../../../test/helpers/polaris-in-jsdom";

import { AppProvider } from "@shopify/polaris";
import en from "@shopify/polaris/locales/en.json";
import { act, type ReactNode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { isTypingTarget, KeyboardShortcutsHelp, readShortcut, ShortcutAction } from "./keyboard-shortcuts";

// The order page's single-key shortcuts: which presses count, and that a key does what its
// button does only while the button could be pressed, never while the merchant types.

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean;
}

const press = (target: EventTarget, key: string, init: KeyboardEventInit = {}) =>
  target.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true, ...init }));

function element(html: string): HTMLElement {
  const holder = document.createElement("div");
  holder.innerHTML = html;
  document.body.append(holder);
  const first = holder.firstElementChild;
  if (!(first instanceof HTMLElement)) throw new Error(`no element in ${html}`);
  return first;
}

describe("which key presses are shortcuts", () => {
  afterEach(() => {
    document.body.textContent = "";
  });

  it("reads R, C, B and P in either case, and ? for the list", () => {
    const body = document.body;
    expect(["r", "C", "b", "P"].map((key) => readShortcut({ ...plain, key, target: body }))).toEqual([
      "get-rates",
      "choose-rate",
      "buy",
      "print",
    ]);
    expect(readShortcut({ ...plain, key: "?", target: body })).toBe("help");
    expect(readShortcut({ ...plain, key: "x", target: body })).toBeNull();
    expect(readShortcut({ ...plain, key: "Enter", target: body })).toBeNull();
  });

  it("leaves a key alone while a modifier is held, when it repeats, or while composing text", () => {
    const body = document.body;
    expect(readShortcut({ ...plain, key: "p", ctrlKey: true, target: body })).toBeNull();
    expect(readShortcut({ ...plain, key: "p", metaKey: true, target: body })).toBeNull();
    expect(readShortcut({ ...plain, key: "r", altKey: true, target: body })).toBeNull();
    expect(readShortcut({ ...plain, key: "b", repeat: true, target: body })).toBeNull();
    expect(readShortcut({ ...plain, key: "b", isComposing: true, target: body })).toBeNull();
  });

  it("ignores keys typed into text fields, selects, text areas and editable text, not on a checkbox or button", () => {
    for (const html of [
      '<input type="text">',
      "<input>",
      '<input type="number">',
      '<input type="search">',
      "<textarea></textarea>",
      "<select><option>a</option></select>",
      '<div contenteditable="true">x</div>',
    ]) {
      const target = element(html);
      // jsdom does not compute isContentEditable; the browser does.
      if (target.hasAttribute("contenteditable")) Object.defineProperty(target, "isContentEditable", { value: true });
      expect(isTypingTarget(target), html).toBe(true);
      expect(readShortcut({ ...plain, key: "b", target }), html).toBeNull();
    }
    for (const html of ['<input type="checkbox">', "<button>Edit</button>", '<a href="#">x</a>']) {
      expect(readShortcut({ ...plain, key: "b", target: element(html) }), html).toBe("buy");
    }
  });

  it("ignores keys inside a dialog, such as the Buy confirmation", () => {
    const dialog = element('<div role="dialog"><button>Cancel</button></div>');
    const button = dialog.querySelector("button");
    expect(readShortcut({ ...plain, key: "b", target: button })).toBeNull();
  });
});

const plain = { ctrlKey: false, metaKey: false, altKey: false, repeat: false, isComposing: false };

describe("shortcuts on a page", () => {
  let container: HTMLDivElement;
  let root: Root;

  beforeAll(() => {
    globalThis.IS_REACT_ACT_ENVIRONMENT = true;
  });
  beforeEach(() => {
    container = document.createElement("div");
    document.body.append(container);
    root = createRoot(container);
  });
  afterEach(() => {
    act(() => root.unmount());
    document.body.textContent = "";
  });

  const render = (children: ReactNode) =>
    act(() =>
      root.render(
        <AppProvider i18n={en}>
          <KeyboardShortcutsHelp />
          {children}
        </AppProvider>,
      ),
    );

  it("does the action of an offered button, once per press", () => {
    const getRates = vi.fn();
    const buy = vi.fn();
    render(
      <>
        <ShortcutAction name="get-rates" onPress={getRates} />
        <ShortcutAction name="buy" onPress={buy} />
      </>,
    );
    act(() => void press(document.body, "r"));
    act(() => void press(document.body, "B"));
    expect(getRates).toHaveBeenCalledTimes(1);
    expect(buy).toHaveBeenCalledTimes(1);
  });

  it("does nothing while the merchant types in a field, or when the button is not offered", () => {
    const getRates = vi.fn();
    const print = vi.fn();
    render(
      <>
        <input aria-label="Weight" />
        <ShortcutAction name="get-rates" onPress={getRates} />
        <ShortcutAction name="print" onPress={print} disabled />
      </>,
    );
    const field = container.querySelector("input");
    if (!field) throw new Error("no field");
    act(() => void press(field, "r"));
    act(() => void press(document.body, "p"));
    expect(getRates).not.toHaveBeenCalled();
    expect(print).not.toHaveBeenCalled();
  });

  it("stops answering once its button is gone, and keys do nothing where no list is shown", () => {
    const buy = vi.fn();
    render(<ShortcutAction name="buy" onPress={buy} />);
    render(null);
    act(() => void press(document.body, "b"));
    expect(buy).not.toHaveBeenCalled();

    act(() => root.render(<ShortcutAction name="buy" onPress={buy} />));
    act(() => void press(document.body, "b"));
    expect(buy).not.toHaveBeenCalled();
  });

  it("opens the list behind the Keyboard shortcuts button with ?, and closes it with the button", () => {
    // The list itself is drawn by Polaris's Popover, which needs a browser's layout: the browser
    // test (e2e/keyboard-shortcuts.e2e.ts) reads it.
    render(null);
    const button = [...document.querySelectorAll("button")].find((b) => b.textContent === "Keyboard shortcuts");
    if (!button) throw new Error("no Keyboard shortcuts button");
    expect(button.getAttribute("aria-expanded")).toBe("false");
    act(() => void press(document.body, "?"));
    expect(button.getAttribute("aria-expanded")).toBe("true");
    act(() => button.click());
    expect(button.getAttribute("aria-expanded")).toBe("false");
    const field = element("<input>");
    act(() => void press(field, "?"));
    expect(button.getAttribute("aria-expanded")).toBe("false");
  });
});
