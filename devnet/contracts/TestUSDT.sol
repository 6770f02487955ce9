// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title TestUSDT: a minimal ERC-20 for Coffer's local devnet ("Tether USD (devnet)", USDT).
/// @notice Not for any real chain. Written by hand (no OpenZeppelin) and kept small; it reverts
/// with a message on every refused transfer, so tests can mine a failing transaction.
contract TestUSDT {
    string public name;
    string public symbol;
    uint8 public immutable decimals;
    uint256 public totalSupply;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory name_, string memory symbol_, uint8 decimals_, uint256 supply_) {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        totalSupply = supply_;
        balanceOf[msg.sender] = supply_;
        emit Transfer(address(0), msg.sender, supply_);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        require(allowed >= value, "TestUSDT: insufficient allowance");
        if (allowed != type(uint256).max) {
            allowance[from][msg.sender] = allowed - value;
        }
        _transfer(from, to, value);
        return true;
    }

    /// @notice Pays several recipients in one transaction: one Transfer log per recipient.
    function transferMany(address[] calldata to, uint256[] calldata values) external returns (bool) {
        require(to.length == values.length, "TestUSDT: length mismatch");
        for (uint256 i = 0; i < to.length; i++) {
            _transfer(msg.sender, to[i], values[i]);
        }
        return true;
    }

    function _transfer(address from, address to, uint256 value) private {
        require(to != address(0), "TestUSDT: transfer to the zero address");
        uint256 held = balanceOf[from];
        require(held >= value, "TestUSDT: insufficient balance");
        unchecked {
            balanceOf[from] = held - value;
        }
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
