// Plays a turn of a solo game through the types openapi-typescript generated from the served
// schema, compiled with `tsc --strict`: the decision's first option goes back as a typed move.
import type { components } from "./schema";

type Schemas = components["schemas"];
type Option = Schemas["Option"];

// Node's globals this script uses (no @types/node to install).
declare const process: { argv: string[]; exit(code: number): never };

const base = process.argv[2];

async function call<T>(method: string, path: string, token: string | null, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token !== null) headers["Authorization"] = `Bearer ${token}`;
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    const error = (await response.json()) as Schemas["Error"];
    throw new Error(`${method} ${path}: ${response.status} ${error.code}: ${error.detail}`);
  }
  return (await response.json()) as T;
}

function describe(option: Option): string {
  // the discriminator narrows each branch: its own fields are typed
  switch (option.action) {
    case "write":
      return `write ${option.number} in ${option.space}`;
    case "system_error":
      return `System Error on ${option.box ?? "no box"}`;
    case "give":
    case "remove":
      return `${option.action} card ${option.card}`;
    default:
      return option.action;
  }
}

async function main(): Promise<void> {
  const credentials: Schemas["CredentialsRequest"] = { username: "ts-eve", password: "lunar-pw-17" };
  const { token } = await call<Schemas["Token"]>("POST", "/auth/register", null, credentials);
  const create: Schemas["CreateGameRequest"] = { adventure: 1, max_players: 1 };
  const game = await call<Schemas["Game"]>("POST", "/games", token, create);
  await call<Schemas["Game"]>("POST", `/games/${game.id}/start`, token);
  let decision = await call<Schemas["Decision"]>("GET", `/games/${game.id}/decision`, token);
  const played: string[] = [];
  while (decision.kind !== "confirm" && decision.options.length > 0) {
    const choice: Option = decision.options[0];
    played.push(describe(choice));
    const move: Schemas["MoveRequest"] = { choice };
    const result = await call<Schemas["CommandResult"]>("POST", `/games/${game.id}/moves`, token, move);
    decision = result.decision;
  }
  const confirmed = await call<Schemas["CommandResult"]>("POST", `/games/${game.id}/confirm`, token);
  const kinds = confirmed.events.map((event: Schemas["Event"]) => event.kind);
  console.log(`TypeScript: game ${game.id} turn played (${played.join(", ")}); confirmed: ${kinds.join(", ")}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
