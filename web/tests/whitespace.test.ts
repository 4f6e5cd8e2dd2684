import { readdirSync, readFileSync } from "node:fs";
import { parse } from "svelte/compiler";
import { describe, expect, it } from "vitest";

// Svelte trims the whitespace (spaces, tabs, line breaks; not &nbsp;) at the start and at the end
// of a block's content ({#if}, {:else}, {#each}, {#key}, {#await}), so `{name}{#if guest} <small>…`
// renders "name<small>…" with no space. A space meant to be seen there is written `{" "}`.

const src = new URL("../src/", import.meta.url);

type Node = { type: string; start: number; end: number; data?: string; [k: string]: unknown };
type Fragment = { nodes: Node[] };

/** The fragments of a block: its content and its alternatives. */
function blockFragments(node: Node): Fragment[] {
  const keys = ["consequent", "alternate", "body", "fallback", "fragment", "pending", "then", "catch"];
  const out: Fragment[] = [];
  for (const k of keys) {
    const f = node[k] as Fragment | null | undefined;
    if (f && Array.isArray(f.nodes)) out.push(f);
  }
  return out;
}

const BLOCKS = new Set(["IfBlock", "EachBlock", "KeyBlock", "AwaitBlock"]);

/** Where a block's content starts or ends with spaces on the same line as other content: the
 * spaces Svelte drops (a line break there is layout, not a space to show). */
export function droppedSpaces(source: string): string[] {
  const ast = parse(source, { modern: true }) as unknown as { fragment: Fragment };
  const found: string[] = [];
  const line = (at: number) => source.slice(0, at).split("\n").length;
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(visit);
      return;
    }
    if (!value || typeof value !== "object") return;
    const node = value as Node;
    if (BLOCKS.has(node.type)) {
      for (const f of blockFragments(node)) {
        const first = f.nodes[0];
        const last = f.nodes[f.nodes.length - 1];
        const inline = (ws: string) => ws.length > 0 && !ws.includes("\n");
        const more = (n: Node) => (n.data ?? "").trim() !== "" || f.nodes.length > 1;
        if (first?.type === "Text") {
          const gap = /^[ \t\r\n]*/.exec(first.data ?? "")![0];
          if (inline(gap) && more(first)) found.push(`line ${line(first.start)}: leading space`);
        }
        if (last?.type === "Text") {
          const gap = /[ \t\r\n]*$/.exec(last.data ?? "")![0];
          if (inline(gap) && more(last)) found.push(`line ${line(last.end)}: trailing space`);
        }
      }
    }
    for (const [k, v] of Object.entries(node)) {
      if (k !== "metadata" && k !== "parent") visit(v);
    }
  };
  visit(ast.fragment);
  return found;
}

describe("spaces at a block's edge", () => {
  it("finds the space Svelte drops", () => {
    expect(droppedSpaces(`<p>{a}{#if b} <small>x</small>{/if}</p>`)).toEqual(["line 1: leading space"]);
    expect(droppedSpaces(`<p>{#if b}x {/if}y</p>`)).toEqual(["line 1: trailing space"]);
    expect(droppedSpaces(`<p>{#if b}x{:else} y{/if}</p>`)).toEqual(["line 1: leading space"]);
    expect(droppedSpaces(`<p>{#each a as q} {q}{/each}</p>`)).toEqual(["line 1: leading space"]);
    expect(droppedSpaces(`<p>{a} {#if b}<small>x</small>{/if}</p>`)).toEqual([]);
    expect(droppedSpaces(`{#if b}\n  <p>x</p>\n{/if}`)).toEqual([]);
    expect(droppedSpaces(`<p>{a}{#if b}&nbsp;<small>x</small>{/if}</p>`)).toEqual([]);
    expect(droppedSpaces(`<p>{a}{#if b}{" "}<small>x</small>{/if}</p>`)).toEqual([]);
  });
  it("is in no component", () => {
    const found: string[] = [];
    const files = readdirSync(src, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".svelte"));
    expect(files).toContain("App.svelte");
    for (const file of files.sort()) {
      for (const where of droppedSpaces(readFileSync(new URL(file, src), "utf8"))) found.push(`${file} ${where}`);
    }
    expect(found).toEqual([]);
  });
});
