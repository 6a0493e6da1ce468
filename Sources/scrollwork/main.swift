import ScrollworkApp

await ScrollworkCommand.runAsMain()
