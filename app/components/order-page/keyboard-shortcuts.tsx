import { BlockStack, Box, Button, InlineStack, KeyboardKey, Popover, Text } from "@shopify/polaris";
import { useEffect, useRef, useState } from "react";

import type { Rate } from "~/shipping/schemas";

import { PHONE_MEDIA_QUERY } from "../shared/phone-width";
import { pickMarkedRate } from "./marked-rate";

// Single-key shortcuts on the order page, for merchants who ship many orders in a row (issue 25
// §7): R gets rates, C chooses the marked rate, B opens the Buy confirmation (never buys by
// itself), P prints the bought label, ? shows the list. A key is ignored while the merchant types
// in a field, holds a modifier (Ctrl/⌘/Alt keep their browser meaning) or works in a dialog.
//
// The page shows <KeyboardShortcutsHelp> (the keys work while it is there); each action is
// registered by a <ShortcutAction> rendered next to its button, and only while that button could
// be pressed, so a key never does what the screen does not offer.

// A phone has no keys to press: the help button leaves its header there (the keys still work
// with a keyboard attached). A media query, as the rates' phone rows: it is in the server's HTML.
const HELP_BUTTON = "keyboard-shortcuts-help";
const HIDDEN_ON_PHONE = `${PHONE_MEDIA_QUERY} { .${HELP_BUTTON} { display: none; } }`;

export const SHORTCUTS = [
  { name: "get-rates", key: "R", does: "Get rates" },
  { name: "choose-rate", key: "C", does: "Choose the marked rate: the customer's choice, else the cheapest" },
  { name: "buy", key: "B", does: "Buy the draft label (you confirm the amount first)" },
  { name: "print", key: "P", does: "Print the bought label" },
] as const;

export type ShortcutName = (typeof SHORTCUTS)[number]["name"];

type KeyPress = Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey" | "altKey" | "repeat" | "isComposing" | "target">;

// Inputs in which a letter is not typed: a focused checkbox or button still lets shortcuts through.
const NOT_TYPED = new Set(["checkbox", "radio", "button", "submit", "reset", "range", "color", "file", "image"]);

/** Whether a key press on `target` types into a field (text inputs, selects, text areas, editable text). */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== "function") return false;
  const element = target as HTMLElement;
  if (element.isContentEditable) return true;
  const tag = element.tagName;
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  if (tag === "INPUT") return !NOT_TYPED.has((element as HTMLInputElement).type.toLowerCase());
  return false;
}

/** What a key press asks for: a shortcut's name, "help", or null when it is not meant as one. */
export function readShortcut(event: KeyPress): ShortcutName | "help" | null {
  if (event.ctrlKey || event.metaKey || event.altKey || event.repeat || event.isComposing) return null;
  if (isTypingTarget(event.target)) return null;
  // A dialog (the Buy confirmation, a modal) has its own keys; the page behind it must not act.
  const element = event.target as Element | null;
  if (element && typeof element.closest === "function" && element.closest('[role="dialog"], [aria-modal="true"]')) {
    return null;
  }
  if (event.key === "?") return "help";
  const key = event.key.toUpperCase();
  return SHORTCUTS.find((s) => s.key === key)?.name ?? null;
}

// What each shortcut does now, registered by the <ShortcutAction> beside its button. One page
// at a time shows shortcuts, so one registry serves it; the last registered wins a key.
const actions = new Map<ShortcutName, { current: () => void }>();

/**
 * Makes a shortcut do `onPress` while this is rendered and not disabled. Render it beside the
 * button that does the same, with the same disabled state. Keys are listened for only where
 * <KeyboardShortcutsHelp> lists them.
 */
export function ShortcutAction({
  name,
  onPress,
  disabled = false,
}: {
  name: ShortcutName;
  onPress: () => void;
  disabled?: boolean;
}) {
  const press = useRef(onPress);
  press.current = onPress;
  useEffect(() => {
    if (disabled) return;
    actions.set(name, press);
    return () => {
      if (actions.get(name) === press) actions.delete(name);
    };
  }, [name, disabled]);
  return null;
}

/**
 * The "Keyboard shortcuts" button and its list. The keys work while it is on the page, so they
 * work exactly where they are listed; "?" opens the list too.
 */
export function KeyboardShortcutsHelp() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      const shortcut = readShortcut(event);
      if (shortcut === "help") {
        event.preventDefault();
        setOpen((now) => !now);
        return;
      }
      const action = shortcut ? actions.get(shortcut) : undefined;
      if (!action) return;
      event.preventDefault();
      action.current();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);
  return (
    <span className={HELP_BUTTON}>
      <style>{HIDDEN_ON_PHONE}</style>
      <Popover
        active={open}
        onClose={() => setOpen(false)}
        activator={
          <Button onClick={() => setOpen(!open)} disclosure={open ? "up" : "down"} ariaExpanded={open}>
            Keyboard shortcuts
          </Button>
        }
        ariaHaspopup="dialog"
      >
        <Box padding="400" maxWidth="360px">
          <BlockStack gap="300">
            <Text as="h2" variant="headingSm">
              Keyboard shortcuts
            </Text>
            <BlockStack as="ul" gap="200">
              {SHORTCUTS.map((s) => (
                <InlineStack as="li" key={s.name} gap="300" blockAlign="start" wrap={false}>
                  <KeyboardKey>{s.key}</KeyboardKey>
                  <Text as="span">{s.does}</Text>
                </InlineStack>
              ))}
              <InlineStack as="li" gap="300" blockAlign="start" wrap={false}>
                <KeyboardKey>?</KeyboardKey>
                <Text as="span">Show or hide this list</Text>
              </InlineStack>
            </BlockStack>
            <Text as="p" tone="subdued" variant="bodySm">
              Keys do nothing while you type in a field.
            </Text>
          </BlockStack>
        </Box>
      </Popover>
    </span>
  );
}

/** C: chooses the marked rate (the customer's choice, else the cheapest) as its Choose button would. */
export function ChooseMarkedRate({
  rates,
  customerChose,
  disabled,
  onChoose,
}: {
  rates: readonly Rate[];
  customerChose: string | null;
  disabled: boolean;
  onChoose: (rate: Rate) => void;
}) {
  const marked = pickMarkedRate(rates, customerChose);
  return (
    <ShortcutAction name="choose-rate" onPress={() => marked && onChoose(marked)} disabled={disabled || !marked} />
  );
}
