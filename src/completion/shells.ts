/** The shells svc writes completion scripts for, and how each installs one. */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** Where each shell's line goes and what it needs, said above the command (a comment after it could be cut off and pasted as a command). */
export const INSTALL_NOTE: Record<Shell, string> = {
  bash: 'bash',
  zsh: 'zsh (the line must come after compinit; or save the script as _svc in a directory of $fpath)',
  fish: 'fish',
};

export const INSTALL: Record<Shell, string> = {
  bash: 'echo \'source <(svc completion bash)\' >> ~/.bashrc',
  zsh: "echo 'source <(svc completion zsh)' >> ~/.zshrc",
  fish: 'svc completion fish > ~/.config/fish/completions/svc.fish',
};
