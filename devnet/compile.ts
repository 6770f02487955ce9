/**
 * Compiles devnet/contracts/TestUSDT.sol with the `solc` npm package (Hardhat cannot download
 * compilers here) into the committed artifact devnet/TestUSDT.json. Deterministic: the same
 * source and solc give the same bytes, and tests/chains/devnet.test.ts checks that the committed
 * artifact is what this produces. Run with `npm run devnet:compile`.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import solc from 'solc';
import { z } from 'zod';

const here = path.dirname(fileURLToPath(import.meta.url));
export const CONTRACT_SOURCE_PATH = path.join(here, 'contracts', 'TestUSDT.sol');
export const ARTIFACT_PATH = path.join(here, 'TestUSDT.json');
const CONTRACT_NAME = 'TestUSDT';
/** The source's name inside solc's input; it is part of the metadata hash, so it never varies. */
const SOURCE_KEY = 'TestUSDT.sol';

export interface ContractArtifact {
  contractName: string;
  /** `solc <full version>` that produced the bytecode. */
  compiler: string;
  /** SHA-256 (hex) of the exact source bytes compiled. */
  sourceSha256: string;
  abi: unknown[];
  /** Creation bytecode, 0x-prefixed hex. */
  bytecode: `0x${string}`;
}

const solcOutputSchema = z.object({
  errors: z.array(z.object({ severity: z.string(), formattedMessage: z.string() })).optional(),
  contracts: z
    .record(
      z.string(),
      z.record(
        z.string(),
        z.object({
          abi: z.array(z.unknown()),
          evm: z.object({ bytecode: z.object({ object: z.string() }) }),
        }),
      ),
    )
    .optional(),
});

/** Compiles the contract (optimizer on, 200 runs, evmVersion paris); throws with solc's errors. */
export function compileTestUsdt(
  source: string = fs.readFileSync(CONTRACT_SOURCE_PATH, 'utf8'),
): ContractArtifact {
  const input = {
    language: 'Solidity',
    sources: { [SOURCE_KEY]: { content: source } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      // Hardhat 2's default hardfork runs paris code; newer defaults would emit PUSH0 and MCOPY.
      evmVersion: 'paris',
      outputSelection: { [SOURCE_KEY]: { [CONTRACT_NAME]: ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = solcOutputSchema.parse(JSON.parse(solc.compile(JSON.stringify(input)) as string));
  const errors = (output.errors ?? []).filter((error) => error.severity === 'error');
  if (errors.length > 0) {
    throw new Error(`solc failed:\n${errors.map((error) => error.formattedMessage).join('\n')}`);
  }
  const compiled = output.contracts?.[SOURCE_KEY]?.[CONTRACT_NAME];
  if (!compiled) throw new Error(`solc produced no ${CONTRACT_NAME}`);
  return {
    contractName: CONTRACT_NAME,
    compiler: `solc ${solc.version() as string}`,
    sourceSha256: crypto.createHash('sha256').update(source, 'utf8').digest('hex'),
    abi: compiled.abi,
    bytecode: `0x${compiled.evm.bytecode.object}`,
  };
}

/** The artifact as committed: two-space JSON with a final newline (what prettier keeps). */
export function serializeArtifact(artifact: ContractArtifact): string {
  return `${JSON.stringify(artifact, null, 2)}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const artifact = compileTestUsdt();
  fs.writeFileSync(ARTIFACT_PATH, serializeArtifact(artifact));
  console.log(
    `wrote ${path.relative(process.cwd(), ARTIFACT_PATH)} (${artifact.compiler}, ${(artifact.bytecode.length - 2) / 2} bytes)`,
  );
}
