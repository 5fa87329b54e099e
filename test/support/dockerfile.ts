import { readFileSync } from 'node:fs';
import { type Copy, DockerfileParser, type Env, type Instruction } from 'dockerfile-ast';

/** The repository's Dockerfile, parsed by the Docker language server's parser, and read by stage. */
export const DOCKERFILE_TEXT = readFileSync(new URL('../../Dockerfile', import.meta.url), 'utf8');
export const dockerfile = DockerfileParser.parse(DOCKERFILE_TEXT);

/** The instructions of each stage (its FROM to the next FROM), by the stage's name, in order. */
export const stages = new Map<string, Instruction[]>();
{
  let current: Instruction[] = [];
  for (const instruction of dockerfile.getInstructions()) {
    if (instruction.getKeyword() === 'FROM') {
      current = [];
      const from = dockerfile.getFROMs().find((f) => f.getRange().start.line === instruction.getRange().start.line);
      stages.set(from?.getBuildStage() ?? `stage ${stages.size}`, current);
    }
    current.push(instruction);
  }
}

/** The last stage: what the image runs. */
export const runtimeStage = [...stages.values()].at(-1)!;

export const withKeyword = (instructions: readonly Instruction[], keyword: string) =>
  instructions.filter((i) => i.getKeyword() === keyword);
export const argumentsOf = (instruction: Instruction) => instruction.getArguments().map((a) => a.getValue());
export const flagOf = (instruction: Instruction, name: string) =>
  (instruction as Copy)
    .getFlags()
    .find((f) => f.getName() === name)
    ?.getValue() ?? undefined;

/** The variables the ENV instructions of `instructions` set. */
export const envOf = (instructions: readonly Instruction[]) =>
  new Map(
    withKeyword(instructions, 'ENV').flatMap((e) => (e as Env).getProperties().map((p) => [p.getName(), p.getValue() ?? ''] as const)),
  );

/** The argv of an exec-form instruction (CMD ["node", "x"], HEALTHCHECK … CMD [...]): its JSON array. */
export const execForm = (instruction: Instruction): string[] =>
  JSON.parse(/\[.*\]$/.exec(instruction.getArgumentsContent() ?? '')?.[0] ?? 'null') as string[];
