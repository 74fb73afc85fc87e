# corpus-lib.sh: what the scripts that build real programs from Debian
# sources share. Source it after setting $src, the folder of the sources.

# source_dir PKG: prints the unpacked source folder of Debian source package
# PKG, fetching it on first use.
source_dir() {
	local d
	d=$(find "$src" -maxdepth 1 -type d -name "$1-[0-9]*" | head -1)
	if [[ -z $d ]]; then
		(cd "$src" && apt-get source -qq "$1" >"$src/$1.log" 2>&1) ||
			source_older_version "$1" || {
			if grep -q "deb-src" "$src/$1.log"; then
				echo "apt-get source $1 failed: no deb-src entries (scripts/bench-corpus.sh -i adds them)" >&2
			else
				echo "apt-get source $1 failed (see $src/$1.log)" >&2
			fi
			return 1
		}
		d=$(find "$src" -maxdepth 1 -type d -name "$1-[0-9]*" | head -1)
	fi
	[[ -n $d ]] && echo "$d"
}

# source_older_version PKG: fetches PKG's source at each other version the
# configured archives list, newest first, until one arrives. A mirror can list
# a version (a security update, say) whose files it does not serve.
source_older_version() {
	local v
	for v in $(apt-cache showsrc "$1" 2>/dev/null | sed -n 's/^Version: //p' | sort -rV | tail -n +2); do
		(cd "$src" && apt-get source -qq "$1=$v" >>"$src/$1.log" 2>&1) && return 0
	done
	return 1
}

# lua_workload is the Lua script the lua interpreters run: sorting, string
# formatting and matching, recursion and table churn.
# shellcheck disable=SC2034 # used by the scripts that source this file
lua_workload='
local t = {}
for i = 1, 300000 do t[i] = (i * 7919) % 100003 end
table.sort(t)
local function fib(n) if n < 2 then return n end return fib(n-1) + fib(n-2) end
local s = 0
for i = 1, 27 do s = s + fib(i) end
local parts = {}
for i = 1, 200000 do parts[#parts+1] = string.format("%d:%x", i, i * 31) end
local joined = table.concat(parts, ",")
local count = 0
for w in joined:gmatch("[^,]+") do if w:find("ff") then count = count + 1 end end
local m = {}
for i = 1, 200000 do m["k" .. i] = i end
for i = 1, 200000, 3 do m["k" .. i] = nil end
print(s, count, #t)
'
