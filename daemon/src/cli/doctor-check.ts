/** One line of `baton doctor`: ok, or not with its fix; a warning is ok (does not fail doctor) but shows its fix. */
export type Check = { name: string; ok: boolean; warn?: boolean; detail: string; fix?: string };
