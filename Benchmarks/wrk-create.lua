-- wrk script: one single-record records/modify create per request, unique names.
-- CK_PATH is the records/modify path with ckAPIToken and ckWebAuthToken (see run-wrk.sh).
local counter = 0
local start = os.time()
local path = os.getenv("CK_PATH")

function setup(thread)
  thread_index = (thread_index or 0) + 1
  thread:set("tid", thread_index)
end

request = function()
  counter = counter + 1
  local name = "w" .. tid .. "-" .. counter .. "-" .. start
  local body = '{"zoneID":{"zoneName":"Bench"},"atomic":false,"operations":[{"operationType":"create","record":{"recordName":"' .. name
    .. '","recordType":"Destination","fields":{"caption":{"value":"Destination ' .. name .. '","type":"STRING"},'
    .. '"details":{"value":"A short note about the place, the food, the people and the weather there.","type":"STRING"},'
    .. '"createdAt":{"value":1767225600000,"type":"TIMESTAMP"},'
    .. '"image":{"value":"q6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6ur","type":"BYTES"}}}}]}'
  return wrk.format("POST", path, {["Content-Type"] = "application/json"}, body)
end
